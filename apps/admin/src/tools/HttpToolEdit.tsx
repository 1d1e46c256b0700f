import { Edit } from 'react-admin';
import { HttpToolForm } from './HttpToolForm';
import { HttpToolTestCall } from './HttpToolTestCall';

// Only what the API edits; secretHeaders only when typed (absent keeps the stored ones).
const transform = ({ description, url, method, parameters, headers, secretHeaders, timeoutMs, readOnly, destructive }: Record<string, unknown>) => ({
  description,
  url,
  method,
  parameters,
  headers: headers ?? {},
  ...(secretHeaders !== undefined && { secretHeaders }),
  timeoutMs,
  readOnly,
  destructive,
});

export function HttpToolEdit() {
  return (
    <Edit transform={transform} mutationMode="pessimistic" redirect={() => 'tools'}>
      <>
        <HttpToolForm />
        <HttpToolTestCall />
      </>
    </Edit>
  );
}
