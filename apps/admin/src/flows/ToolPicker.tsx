import { CheckboxGroupInput } from 'react-admin';
import { useWatch } from 'react-hook-form';

interface ToolPickerProps {
  source: string;
  label: string;
  helperText?: string;
}

/**
 * Tools of a flow or step, picked from the agent's allow-list (never typed). A value the
 * allow-list no longer holds stays visible, marked, so it can be unticked.
 */
export function ToolPicker({ source, label, helperText }: ToolPickerProps) {
  const allowed = (useWatch({ name: 'draft.tools' }) ?? []) as string[];
  const picked = (useWatch({ name: source }) ?? []) as string[];
  const stale = picked.filter((t) => !allowed.includes(t));
  const choices = [...allowed.map((t) => ({ id: t, name: t })), ...stale.map((t) => ({ id: t, name: `${t} (not in the agent's allow-list)` }))];
  if (choices.length === 0) {
    return <CheckboxGroupInput source={source} label={label} choices={[]} helperText="Allow tools for the agent first (Tools & behaviour)" />;
  }
  return <CheckboxGroupInput source={source} label={label} choices={choices} helperText={helperText} />;
}
