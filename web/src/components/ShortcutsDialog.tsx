// The list of keyboard shortcuts `?` opens (a modal <dialog>: Esc closes it).
import { useEffect, useRef } from 'react';
import { useLang } from '../i18n/lang';
import { SHORTCUTS } from '../lib/shortcuts';

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useLang();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current!;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const row = (keys: string[], what: string) => (
    <tr key={keys.join()}>
      <td>
        {keys.map((k) => (
          <kbd key={k}>{k}</kbd>
        ))}
      </td>
      <td>{what}</td>
    </tr>
  );
  return (
    <dialog ref={dialog} className="shortcuts" onClose={onClose} data-testid="shortcuts">
      <h2>{t.shortcutsTitle}</h2>
      <table>
        <tbody>
          {SHORTCUTS.map((s) => row(s.keys, t.shortcuts[s.action]))}
          {row(['W', 'S'], t.shortcutTimelineZoom)}
          {row(['A', 'D'], t.shortcutTimelinePan)}
          {row(['↑', '↓', 'Home', 'End'], t.shortcutRowMove)}
          {row(['Enter'], t.shortcutRowEnter)}
          {row(['Esc'], t.shortcutEsc)}
        </tbody>
      </table>
      <button className="button" onClick={onClose} data-testid="shortcuts-close">
        {t.close}
      </button>
    </dialog>
  );
}
