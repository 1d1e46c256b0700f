import { TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';

// The engine's duration: a whole number and a unit. Checked here only as a hint; the engine's
// refusal on publish is shown at this input (it is the authority, and says why).
const DURATION = /^\s*\d+(ms|s|m|h|d)\s*$/;

interface DurationInputProps {
  source: string;
  label: string;
  helperText?: string;
}

/** "30s", "5m", "24h", "3d". */
export function DurationInput({ source, label, helperText }: DurationInputProps) {
  const value = useWatch({ name: source }) as string | undefined;
  const hint = value && !DURATION.test(value) ? `Not a duration yet: write a number and ms, s, m, h or d` : (helperText ?? 'For example 30s, 5m, 24h, 3d');
  return <TextInput source={source} label={label} helperText={hint} sx={{ minWidth: 'min(200px, 100%)' }} />;
}
