// The selected rule's settings, generated from its option declarations, and
// the global options it reads (edited as lists, shared by every rule).
import type { GlobalOptionSpec, OptionSpec, RuleDecl } from '../engine/types';
import { parseChoiceList, parseIdList, type SettingValues } from '../lib/options';
import { missingIds } from '../lib/report_settings';
import { ListSetting } from './ListSetting';
import { choiceLabel, defaultLabel, groupLabel, optionHelp, optionLabel } from '../i18n/decl';
import { useLang } from '../i18n/lang';

/** The global options' editors: the entries in force, checking and saving. */
export interface GlobalSettings {
  entries: (spec: GlobalOptionSpec) => string[];
  check: (name: string, value: string) => Promise<string>;
  save: (name: string, entries: string[]) => Promise<void>;
}

/** An id the report knows (a device, a process), offered as a toggle. */
export interface KnownId {
  id: number;
  title: string;
}

interface Props {
  rule: RuleDecl;
  values: SettingValues;
  errors: Record<string, string>;
  /** Known ids per IdList option name (e.g. device -> the report's devices). */
  knownIds: (opt: OptionSpec) => KnownId[];
  onChange: (name: string, value: string) => void;
  onReset: () => void;
  /** Absent when the engine has no global options (an older engine). */
  global?: GlobalSettings;
}

/** The options in declaration order, a run of options of one settings group together. */
function groupsOf(options: OptionSpec[]): { group: string; options: OptionSpec[] }[] {
  const out: { group: string; options: OptionSpec[] }[] = [];
  for (const opt of options) {
    const last = out[out.length - 1];
    if (last && opt.group && last.group === opt.group) last.options.push(opt);
    else out.push({ group: opt.group, options: [opt] });
  }
  return out;
}

// Past this many ids a text field is easier than toggles.
const MAX_TOGGLES = 16;

export function SettingsPanel({ rule, values, errors, knownIds, onChange, onReset, global }: Props) {
  const { lang, t } = useLang();
  const lists = global ? rule.globalOptions : [];
  if (rule.options.length === 0 && lists.length === 0) {
    return (
      <div className="settings empty" data-testid="settings">
        <span className="muted small">{t.noSettings}</span>
      </div>
    );
  }
  return (
    <div className="settings" data-testid="settings">
      {groupsOf(rule.options).map(({ group, options }) => {
        const controls = options.map((opt) => (
          <Control
            key={opt.name}
            opt={opt}
            value={values[opt.name] ?? ''}
            error={errors[opt.name]}
            known={opt.kind === 'IdList' ? knownIds(opt) : []}
            onChange={(v) => onChange(opt.name, v)}
          />
        ));
        return group ? (
          <fieldset className="setting-group" key={`group:${group}`} data-testid={`setting-group-${group}`}>
            <legend>{groupLabel(options[0], lang)}</legend>
            {controls}
          </fieldset>
        ) : (
          controls
        );
      })}
      {rule.options.length > 0 && (
        <button className="link-button small" onClick={onReset} title={t.resetTitle}>
          {t.reset}
        </button>
      )}
      {global &&
        lists.map((spec) => (
          <ListSetting
            key={spec.name}
            spec={spec}
            applied={global.entries(spec)}
            check={(value) => global.check(spec.name, value)}
            onSave={(entries) => global.save(spec.name, entries)}
          />
        ))}
    </div>
  );
}

function Control({
  opt,
  value,
  error,
  known,
  onChange,
}: {
  opt: OptionSpec;
  value: string;
  error?: string;
  known: KnownId[];
  onChange: (v: string) => void;
}) {
  const { lang, t } = useLang();
  const label = optionLabel(opt, lang);
  const id = `opt-${opt.name}`;
  // Ids the value names that this report does not have (device=2 on a one-GPU trace): said, never a silent empty table.
  const missing = opt.kind === 'IdList' ? missingIds(value, known.map((k) => k.id)) : [];
  const help = optionHelp(opt, lang) || undefined;
  const shownDefault = defaultLabel(opt, lang);
  let control: React.ReactNode;
  switch (opt.kind) {
    case 'Flag': {
      // An inverted flag (no-graph-mapping) is ticked while the flag is off.
      const ticked = opt.inverted ? value !== '1' : value === '1';
      return (
        <label className="setting flag" title={help} data-testid={`setting-${opt.name}`}>
          <input
            type="checkbox"
            checked={ticked}
            onChange={(e) => onChange(e.target.checked !== opt.inverted ? '1' : '')}
          />
          <span>{label}</span>
        </label>
      );
    }
    case 'Int':
      control = (
        <input
          id={id}
          className="input number"
          type="number"
          step={1}
          value={value}
          placeholder={shownDefault || (opt.defaultValue === '' ? 'no limit' : opt.defaultValue)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'IdList':
      control =
        known.length > 0 && known.length <= MAX_TOGGLES && parseIdList(value) !== null ? (
          <IdPicker
            value={value}
            known={known}
            missing={missing}
            missingTitle={t.notInReport}
            onChange={onChange}
            allLabel={shownDefault || 'All'}
          />
        ) : (
          <input
            id={id}
            className="input ids"
            type="text"
            value={value}
            placeholder={shownDefault || 'All'}
            onChange={(e) => onChange(e.target.value)}
            spellCheck={false}
          />
        );
      break;
    case 'Choice':
      if (opt.choices.length > 0) {
        control = (
        <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
          {!opt.choices.includes(opt.defaultValue) && <option value="">{shownDefault || 'Default'}</option>}
          {opt.choices.map((c, i) => (
            <option key={c} value={c}>
              {(lang === 'zh' && opt.choiceLabelsZh[i]) ||
                opt.choiceLabels[i] ||
                (c === opt.defaultValue && shownDefault ? shownDefault : c)}
            </option>
          ))}
        </select>
        );
        break;
      }
    // falls through: a choice without a list is free text (e.g. a regex)
    case 'Text':
      control = (
        <input
          id={id}
          className="input text"
          type="text"
          value={value}
          placeholder={shownDefault || opt.placeholder || 'All'}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
        />
      );
      break;
    case 'ChoiceList':
      control = <ChoicePicker opt={opt} value={value} onChange={onChange} />;
      break;
    case 'ExclusiveFlags':
      control = (
        <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{shownDefault || 'Default'}</option>
          {opt.flags.map((f) => (
            <option key={f.name} value={f.name} title={optionHelp(f, lang)}>
              {f.label}
            </option>
          ))}
        </select>
      );
      break;
  }
  return (
    <div className={`setting${error ? ' invalid' : ''}`} data-testid={`setting-${opt.name}`}>
      <label htmlFor={id} title={help}>
        {label}
      </label>
      {control}
      {error && <span className="setting-error">{error}</span>}
      {missing.length > 0 && (
        <span className="setting-notice" role="note" data-testid={`setting-missing-${opt.name}`}>
          {t.idsNotInReport(missing.join(', '))}
        </span>
      )}
    </div>
  );
}

/** Known ids as toggles; none selected = all. */
function IdPicker({
  value,
  known,
  missing,
  missingTitle,
  onChange,
  allLabel,
}: {
  value: string;
  known: KnownId[];
  /** Chosen ids the report does not have: shown as chosen, marked, a click drops them. */
  missing: number[];
  missingTitle: string;
  onChange: (v: string) => void;
  allLabel: string;
}) {
  const chosen = new Set(parseIdList(value) ?? []);
  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange([...next].sort((a, b) => a - b).join('/'));
  };
  return (
    <div className="id-picker" role="group">
      <button
        type="button"
        className={`chip toggle${chosen.size === 0 ? ' on' : ''}`}
        onClick={() => onChange('')}
        aria-pressed={chosen.size === 0}
      >
        {allLabel}
      </button>
      {known.map((d) => (
        <button
          type="button"
          key={d.id}
          className={`chip toggle${chosen.has(d.id) ? ' on' : ''}`}
          onClick={() => toggle(d.id)}
          aria-pressed={chosen.has(d.id)}
          title={d.title}
          data-id={d.id}
        >
          {d.id}
        </button>
      ))}
      {missing.map((id) => (
        <button
          type="button"
          key={`missing-${id}`}
          className="chip toggle on missing"
          onClick={() => toggle(id)}
          aria-pressed
          title={missingTitle}
          data-id={id}
          data-missing="true"
        >
          {id}
        </button>
      ))}
    </div>
  );
}

/** A multi-select of the declared choices; none (or all) selected = all. */
function ChoicePicker({ opt, value, onChange }: { opt: OptionSpec; value: string; onChange: (v: string) => void }) {
  const { lang } = useLang();
  const chosen = new Set(parseChoiceList(value));
  const all = chosen.size === 0;
  const toggle = (c: string) => {
    const next = new Set(chosen);
    if (next.has(c)) next.delete(c);
    else next.add(c);
    // Declaration order, as the CLI lists them; every choice is the same as none.
    const picked = opt.choices.filter((x) => next.has(x));
    onChange(picked.length === opt.choices.length ? '' : picked.join('/'));
  };
  return (
    <div className="id-picker" role="group" aria-label={optionLabel(opt, lang)}>
      <button type="button" className={`chip toggle${all ? ' on' : ''}`} onClick={() => onChange('')} aria-pressed={all}>
        {defaultLabel(opt, lang) || 'All'}
      </button>
      {opt.choices.map((c, i) => (
        <button
          type="button"
          key={c}
          className={`chip toggle${chosen.has(c) ? ' on' : ''}`}
          onClick={() => toggle(c)}
          aria-pressed={chosen.has(c)}
          title={choiceLabel(opt, i, lang)}
          data-choice={c}
        >
          {/* The label up to its parenthesis; the whole label on hover. */}
          {choiceLabel(opt, i, lang).split(' (')[0]}
        </button>
      ))}
    </div>
  );
}
