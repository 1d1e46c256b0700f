import QueueIcon from '@mui/icons-material/Queue';
import { Menu } from 'react-admin';
import { useCanOperate } from './ops-roles';

/** The Queues page entry, for the roles that may open it. */
export function QueuesMenuItem() {
  return useCanOperate() ? <Menu.Item to="/queues" primaryText="Queues" leftIcon={<QueueIcon />} /> : null;
}
