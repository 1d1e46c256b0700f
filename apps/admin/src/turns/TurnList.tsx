import { Datagrid, List, ReferenceField, TextField, TextInput } from 'react-admin';
import { turnColumns } from './TurnColumns';
import { TurnDetails } from './TurnDetails';

const filters = [<TextInput key="outcomeCode" source="outcomeCode" label="Outcome code" alwaysOn />];

export function TurnList() {
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25}>
      <Datagrid rowClick="expand" expand={<TurnDetails />} bulkActionButtons={false}>
        <ReferenceField source="sessionId" reference="sessions" label="Session" link="show">
          <TextField source="externalKey" />
        </ReferenceField>
        {turnColumns}
      </Datagrid>
    </List>
  );
}
