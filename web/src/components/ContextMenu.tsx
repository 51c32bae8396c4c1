// A small right-click menu at the pointer: closes on a choice, Escape, or a
// click anywhere else.
import { useEffect, useRef } from 'react';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  /** Shown, but not offered (what it does does not apply here). */
  disabled?: boolean;
}

export function ContextMenu({ x, y, items, onClose }: { x: number; y: number; items: MenuItem[]; onClose: () => void }) {
  const el = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const away = (e: MouseEvent) => {
      if (!el.current?.contains(e.target as Node)) onClose();
    };
    const key = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', key);
    el.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', key);
    };
  }, [onClose]);
  return (
    <ul className="context-menu" ref={el} style={{ left: x, top: y }} role="menu" data-testid="context-menu">
      {items.map((item) => (
        <li key={item.label} role="none">
          <button
            role="menuitem"
            className="context-item"
            disabled={item.disabled}
            onClick={() => {
              item.onSelect();
              onClose();
            }}
          >
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
}
