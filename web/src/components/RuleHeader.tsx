// A rule's heading in the stats and compare views: its title, the same rule
// as a command line, the running mark, its description and its generated
// settings (the report's devices and processes offered as toggles).
import type { OptionSpec, ReportSummary, RuleDecl } from '../engine/types';
import { ruleDescription, ruleTitle } from '../i18n/decl';
import { useLang } from '../i18n/lang';
import type { SettingValues } from '../lib/options';
import { usePrefs } from '../state/prefs';
import { SettingsPanel, type GlobalSettings, type KnownId } from './SettingsPanel';

/** The ids an IdList option may take in a report: its devices, or its processes. */
export function knownIds(summary: ReportSummary, opt: OptionSpec): KnownId[] {
  const what = `${opt.name} ${opt.label}`.toLowerCase();
  if (what.includes('device')) {
    return summary.devices.map((d) => ({ id: d.id, title: d.name ? `${d.name} (${d.id})` : `Device ${d.id}` }));
  }
  if (what.includes('process') || what.includes('pid')) {
    return summary.processes.map((p) => ({ id: p.pid, title: p.name ? `${p.name} (PID ${p.pid})` : `PID ${p.pid}` }));
  }
  return [];
}

interface Props {
  rule: RuleDecl;
  /** The rule as the CLI runs it. */
  cli: string;
  running: boolean;
  values: SettingValues;
  errors: Record<string, string>;
  /** The report whose devices and processes the settings offer. */
  summary: ReportSummary;
  global?: GlobalSettings;
}

export function RuleHeader({ rule, cli, running, values, errors, summary, global }: Props) {
  const { lang, t } = useLang();
  const prefs = usePrefs();
  const description = ruleDescription(rule, lang);
  return (
    <div className="rule-header">
      <div className="rule-heading">
        <h1 data-testid="rule-title">{ruleTitle(rule, lang)}</h1>
        <code className="cli-spec" title={t.cliTitle}>
          {cli}
        </code>
        {running && (
          <span className="running" role="status">
            <span className="spinner" aria-hidden /> {t.running}
          </span>
        )}
      </div>
      {description && (
        <p className="rule-description" title={description} data-testid="rule-description">
          {description}
        </p>
      )}
      <SettingsPanel
        rule={rule}
        values={values}
        errors={errors}
        knownIds={(opt) => knownIds(summary, opt)}
        onChange={(name, value) => prefs.setSetting(rule, name, value)}
        onReset={() => prefs.resetSettings(rule)}
        global={global}
      />
    </div>
  );
}
