import { Autocomplete, Chip, TextField } from '@mui/material';
import { useInput, type Validator } from 'react-admin';

interface ChipsInputProps {
  source: string;
  label: string;
  helperText?: string;
  placeholder?: string;
  validate?: Validator | Validator[];
}

/**
 * Free text values as chips (trigger phrases, enum values): type and press Enter to add one.
 * The form holds a string[].
 */
export function ChipsInput({ source, label, helperText, placeholder, validate }: ChipsInputProps) {
  const { field, fieldState } = useInput({ source, defaultValue: [], validate });
  const value = (Array.isArray(field.value) ? field.value : []) as string[];
  return (
    <Autocomplete
      multiple
      freeSolo
      options={[]}
      value={value}
      onChange={(_, next) => field.onChange(next.map((v) => String(v).trim()).filter(Boolean))}
      onBlur={field.onBlur}
      renderValue={(items, getItemProps) =>
        items.map((item, index) => {
          const { key, ...rest } = getItemProps({ index });
          return <Chip key={key} size="small" label={item} color={String(item).startsWith('!') ? 'warning' : 'default'} {...rest} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={placeholder ?? 'Type and press Enter'}
          error={fieldState.invalid}
          helperText={fieldState.error?.message ?? helperText}
          size="small"
          inputProps={{ ...params.inputProps, 'aria-label': label }}
        />
      )}
      sx={{ width: '100%', mb: 1 }}
    />
  );
}
