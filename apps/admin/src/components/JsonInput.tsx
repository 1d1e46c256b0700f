import { TextInput } from 'react-admin';

interface JsonInputProps {
  source: string;
  label: string;
  helperText?: string;
  /** What the parsed value must be; default a JSON object. */
  objectOnly?: boolean;
}

// The form keeps the text while it does not parse, so validation can name the problem.
const format = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
const parse = (text: string) => {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const validate = (value: unknown) => {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    try {
      JSON.parse(value);
    } catch (err) {
      return `Not valid JSON: ${(err as Error).message}`;
    }
  }
  if (typeof value !== 'object' || Array.isArray(value) || value === null) return 'Must be a JSON object { ... }';
  return undefined;
};

/** A JSON object edited as text (parameter schemas, header maps). */
export function JsonInput({ source, label, helperText }: JsonInputProps) {
  return (
    <TextInput
      source={source}
      label={label}
      multiline
      minRows={3}
      format={format}
      parse={parse}
      validate={validate}
      helperText={helperText}
      sx={{ '& textarea': { fontFamily: 'monospace', fontSize: 13 } }}
    />
  );
}
