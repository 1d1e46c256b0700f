import { required, SelectInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { FLOW_TARGET, type FlowForm, type StepForm } from './flow-form';

interface TargetInputProps {
  flow: number;
  /** The step the target belongs to: left out of the choices of `then` (no step goes to itself next). */
  step: number;
  source: string;
  label: string;
  /** What '' means for this target, e.g. "The next step"; none = a target must be picked. */
  emptyText?: string;
  allowSelf?: boolean;
}

/**
 * Where the run goes: a step of this flow, the end, or another flow it chains into. Picked from
 * the flow's steps and the agent's flows, never typed; a name no longer there stays, marked.
 */
export function TargetInput({ flow, step, source, label, emptyText, allowSelf }: TargetInputProps) {
  const steps = (useWatch({ name: `draft.flows.${flow}.steps` }) ?? []) as StepForm[];
  const flows = (useWatch({ name: 'draft.flows' }) ?? []) as FlowForm[];
  const value = useWatch({ name: source }) as string | undefined;
  const choices = [
    ...steps.filter((s, i) => (allowSelf || i !== step) && s.id).map((s) => ({ id: s.id, name: `Go to “${s.id}”` })),
    { id: 'end', name: 'End the flow' },
    ...flows.filter((f, i) => i !== flow && f.id).map((f) => ({ id: `${FLOW_TARGET}${f.id}`, name: `Start flow “${f.name || f.id}”` })),
  ];
  if (value && !choices.some((c) => c.id === value)) {
    const name = value.startsWith(FLOW_TARGET) ? `flow “${value.slice(FLOW_TARGET.length)}”` : `“${value}”`;
    choices.push({ id: value, name: `${name} (no longer there)` });
  }
  return emptyText === undefined ? (
    <SelectInput source={source} label={label} choices={choices} validate={required()} sx={{ minWidth: 'min(220px, 100%)' }} />
  ) : (
    <SelectInput
      source={source}
      label={label}
      choices={choices}
      emptyText={emptyText}
      emptyValue=""
      helperText={value ? false : `Default: ${emptyText.toLowerCase()}`}
      sx={{ minWidth: 'min(220px, 100%)' }}
    />
  );
}
