import { useMediaQuery, type Theme } from '@mui/material';
import { Datagrid, type DatagridProps } from 'react-admin';
import { RecordCards } from './RecordCards';

/**
 * Every list's table (docs/console.md, "Screen sizes"): below 600 px each row becomes a card
 * with the same fields as label and value, so a phone never scrolls sideways; from 600 px the
 * usual Datagrid, which scrolls inside its own box when its columns are wider than the screen.
 */
export function ResponsiveDatagrid({ sx, ...props }: DatagridProps) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  if (phone) {
    return (
      <RecordCards rowClick={props.rowClick} expand={props.expand} data-testid={(props as { 'data-testid'?: string })['data-testid']}>
        {props.children}
      </RecordCards>
    );
  }
  // The table's own wrapper scrolls: no element is added around the Datagrid.
  return <Datagrid sx={[{ '& .RaDatagrid-tableWrapper': { overflowX: 'auto' } }, ...(sx === undefined ? [] : Array.isArray(sx) ? sx : [sx])]} {...props} />;
}
