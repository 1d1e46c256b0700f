import ChatBubbleIcon from '@mui/icons-material/ChatBubbleOutline';
import { Menu } from 'react-admin';

/** The resources the user's role may open, then the playground. */
export function ConsoleMenu() {
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      <Menu.Item to="/playground" primaryText="Playground" leftIcon={<ChatBubbleIcon />} />
    </Menu>
  );
}
