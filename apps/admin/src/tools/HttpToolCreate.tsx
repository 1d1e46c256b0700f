import { Create } from 'react-admin';
import { HttpToolForm } from './HttpToolForm';

export function HttpToolCreate() {
  return (
    <Create redirect={() => 'tools'}>
      <HttpToolForm creating />
    </Create>
  );
}
