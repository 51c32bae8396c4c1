// A scroll box's scroll offset and visible height, read again on every
// scroll and resize once the box is there.
import { useLayoutEffect, useState, type RefObject } from 'react';

export function useScrollArea(box: RefObject<HTMLElement | null>, mounted: boolean): { top: number; height: number } {
  const [scroll, setScroll] = useState({ top: 0, height: 0 });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const read = () => setScroll({ top: el.scrollTop, height: el.clientHeight });
    read();
    el.addEventListener('scroll', read, { passive: true });
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', read);
      ro.disconnect();
    };
  }, [box, mounted]);
  return scroll;
}
