import { BooleanInput, CheckboxGroupInput } from 'react-admin';
import { useWatch } from 'react-hook-form';

interface ToolPickerProps {
  source: string;
  /** The boolean "offer no tools at all" (`tools: []`), which differs from none ticked. */
  noToolsSource?: string;
  label: string;
  helperText?: string;
}

/**
 * Tools of a flow or step, picked from the agent's allow-list (never typed). A value the
 * allow-list no longer holds stays visible, marked, so it can be unticked.
 */
export function ToolPicker({ source, noToolsSource, label, helperText }: ToolPickerProps) {
  const allowed = (useWatch({ name: 'draft.tools' }) ?? []) as string[];
  const picked = (useWatch({ name: source }) ?? []) as string[];
  const noTools = useWatch({ name: noToolsSource ?? source, disabled: !noToolsSource }) === true;
  const stale = picked.filter((t) => !allowed.includes(t));
  const choices = [...allowed.map((t) => ({ id: t, name: t })), ...stale.map((t) => ({ id: t, name: `${t} (not in the agent's allow-list)` }))];
  const none = noToolsSource ? <BooleanInput source={noToolsSource} label="Offer no tools here" /> : null;
  if (noTools) return none;
  if (choices.length === 0) {
    return <CheckboxGroupInput source={source} label={label} choices={[]} helperText="Allow tools for the agent first (Tools & behaviour)" />;
  }
  return (
    <>
      <CheckboxGroupInput source={source} label={label} choices={choices} helperText={helperText} />
      {none}
    </>
  );
}
