import { regex, TextInput } from 'react-admin';

// A monthly budget as the API takes it (docs/cost.md): USD with at most 6 decimals, kept exact as
// a string end to end; an empty field means no budget.
const AMOUNT = regex(/^\s*\d{1,12}(?:\.\d{1,6})?\s*$/, 'An amount in USD, e.g. 250.00, with at most 6 decimals.');

export function BudgetInput({ source, label, helperText }: { source: string; label: string; helperText: string }) {
  return <TextInput source={source} label={label} validate={AMOUNT} helperText={helperText} InputProps={{ startAdornment: '$' }} />;
}

/** The form's value as the API's `monthlyBudget`: null for an empty field, else the amount as typed. */
export function budgetBody(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
