import { Stack } from '@mui/material';
import { TextInput } from 'react-admin';
import { ArrayEditor } from '../components/ArrayEditor';
import { emptyPredicate, type BranchForm } from './flow-form';
import { PredicateInputs } from './PredicateInputs';
import { TargetInput } from './TargetInput';

/**
 * A talk step's branches, judged on the customer's reply while the step asks: a yes/no question
 * (answered in the understand call) and/or a code predicate; the first that holds wins.
 */
export function BranchesEditor({ flow, step }: { flow: number; step: number }) {
  const at = `draft.flows.${flow}.steps.${step}.branches`;
  return (
    <ArrayEditor<BranchForm>
      name={at}
      testId={`flow-${flow}-step-${step}-branch`}
      newItem={() => ({ when: '', predicate: emptyPredicate(), then: '' })}
      addLabel="Add branch"
      itemTitle={(b, i) => `Branch ${i + 1}${b?.when ? `: “${b.when}”` : ''}`}
      renderItem={(i) => (
        <Stack sx={{ width: '100%' }}>
          <TextInput
            source={`${at}.${i}.when`}
            label="When the reply says… (yes/no question)"
            helperText="Judged by the model in the understand call, no extra call; leave empty to use only the code test below"
            fullWidth
          />
          <TargetInput flow={flow} step={step} source={`${at}.${i}.then`} label="Then" allowSelf />
          <PredicateInputs source={`${at}.${i}.predicate`} testId={`flow-${flow}-step-${step}-branch-${i}-if`} />
        </Stack>
      )}
      empty={<span>No branches: the step moves on to Then once it is done.</span>}
    />
  );
}
