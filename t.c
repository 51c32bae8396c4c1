#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
int main(int argc,char**argv){
  char s[4096]; FILE*f=fopen("subj.txt","r"); size_t n=fread(s,1,4096,f); if(s[n-1]=='\n')n--;
  const char*pat=argv[1]; int err; PCRE2_SIZE off;
  pcre2_code*c=pcre2_compile((PCRE2_SPTR)pat,strlen(pat),PCRE2_UTF,&err,&off,0);
  pcre2_match_data*md=pcre2_match_data_create_from_pattern(c,0);
  for(unsigned lim=1000; lim<=100000000; lim*=10){
    pcre2_match_context*mc=pcre2_match_context_create(0); pcre2_set_match_limit(mc,lim);
    struct timespec a,b; clock_gettime(CLOCK_MONOTONIC,&a);
    int rc=pcre2_match(c,(PCRE2_SPTR)s,n,0,0,md,mc);
    clock_gettime(CLOCK_MONOTONIC,&b);
    printf("limit %u rc %d %.1f ms\n",lim,rc,(b.tv_sec-a.tv_sec)*1e3+(b.tv_nsec-a.tv_nsec)/1e6);
  }
}
