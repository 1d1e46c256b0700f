import { Typography } from '@mui/material';
import { PasswordInput, required, TextInput } from 'react-admin';
import { platformKind } from './platform-kinds';

/**
 * A platform channel's settings and credentials. Credentials are write-only: on edit the fields
 * start empty, and leaving one empty keeps what is stored.
 */
export function PlatformInputs({ kind, editing }: { kind: string; editing: boolean }) {
  const k = platformKind(kind);
  if (!k) return null;
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {k.name} settings
      </Typography>
      {k.settings.map((f) => (
        <TextInput key={f.source} source={`settings.${f.source}`} label={f.label} helperText={f.helperText} defaultValue={f.defaultValue} validate={f.required ? required() : undefined} fullWidth />
      ))}
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {k.name} credentials {editing ? '(stored; type a new value to replace it)' : ''}
      </Typography>
      {k.secrets.map((f) => (
        <PasswordInput
          key={f.source}
          source={`secrets.${f.source}`}
          label={f.label}
          helperText={f.helperText}
          validate={f.required && !editing ? required() : undefined}
          autoComplete="new-password"
          fullWidth
        />
      ))}
    </>
  );
}
