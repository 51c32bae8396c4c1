// One of the engine's lines (an error, a warning) as the viewer shows it: in
// Chinese under lang=zh where a template knows it (i18n/engine_lines.ts), the
// engine's English line, as the CLI prints it, on hover.
import { engineLine } from '../i18n/engine_lines';
import { useLang } from '../i18n/lang';

export function EngineText({ text }: { text: string }) {
  const { lang } = useLang();
  const shown = engineLine(text, lang);
  return <span title={shown === text ? undefined : text}>{shown}</span>;
}
