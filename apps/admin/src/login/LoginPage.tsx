import { Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useLogin, useNotify } from 'react-admin';

/** Email and password, posted to /v1/admin/auth/login through the authProvider. */
export function LoginPage() {
  const login = useLogin();
  const notify = useNotify();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await login({ email, password });
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Login failed.', { type: 'error' });
      setBusy(false);
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'grey.100' }}>
      <Card sx={{ width: 360, maxWidth: 'calc(100vw - 16px)' }}>
        <CardContent component="form" onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="h5" component="h1">
            Switchboard
          </Typography>
          <TextField label="Email" name="email" type="email" autoComplete="username" required autoFocus
            value={email} onChange={(e) => setEmail(e.target.value)} />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required
            value={password} onChange={(e) => setPassword(e.target.value)} />
          <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} /> : null}>
            Sign in
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
