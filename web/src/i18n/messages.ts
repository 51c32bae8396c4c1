// The interface's own texts in English and Chinese. `en` defines the
// catalogue; `zh` must have every entry (a missing one is a type error).
// Rule titles and option labels come from the engine's declarations
// (titleZh, labelZh), not from here.

const en = {
  // the link notice (state/permalink.tsx)
  linkWaiting: (files: string[]) => `This link restores a view of ${files.join(', ')}: open ${files.length > 1 ? 'them' : 'it'} to restore it.`,
  linkProblems: 'Not restored from the link:',
  linkForget: 'Forget the link',
};

export type Messages = typeof en;

const zh: Messages = {
  linkWaiting: (files) => `此链接保存了 ${files.join('、')} 的视图：打开${files.length > 1 ? '这些' : '该'}报告即可恢复。`,
  linkProblems: '链接中未能恢复的部分：',
  linkForget: '忽略此链接',
};

export const messages: Record<'en' | 'zh', Messages> = { en, zh };
