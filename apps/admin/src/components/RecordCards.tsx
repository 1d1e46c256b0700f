import { Box, Button, Card, CardContent, LinearProgress, Stack } from '@mui/material';
import { Children, createElement, isValidElement, useState, type ComponentType, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import {
  FieldTitle,
  ListNoResults,
  RecordContextProvider,
  useCreatePath,
  useListContext,
  useResourceContext,
  type DatagridProps,
  type RaRecord,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';

type RowClick = DatagridProps['rowClick'];
type Target = string | false;

/** Where a click on `record` goes with a Datagrid's `rowClick`: a path, 'expand', or nowhere. */
async function targetOf(rowClick: RowClick, record: RaRecord, resource: string, createPath: ReturnType<typeof useCreatePath>): Promise<Target> {
  const target = typeof rowClick === 'function' ? await rowClick(record.id, resource, record) : rowClick;
  if (!target || target === 'toggleSelection') return false;
  if (target === 'expand') return 'expand';
  if (target === 'edit' || target === 'show') return createPath({ resource, id: record.id, type: target });
  return target;
}

interface FieldProps {
  source?: string;
  label?: ReactNode;
}

/** One row as a card: each column's label above its value, the row's click as an Open button. */
function RecordCard({ record, fields, rowClick, expand }: { record: RaRecord; fields: ReactElement<FieldProps>[]; rowClick: RowClick; expand?: DatagridProps['expand'] }) {
  const resource = useResourceContext() ?? '';
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const [expanded, setExpanded] = useState(false);
  const canExpand = expand !== undefined;
  const opens = Boolean(rowClick) && rowClick !== 'expand';

  const open = async () => {
    const target = await targetOf(rowClick, record, resource, createPath);
    if (target === 'expand') setExpanded((e) => !e);
    else if (target) navigate(target);
  };
  // The whole card answers a click, as a table row does; links and buttons inside keep theirs.
  const onCardClick = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a, button, input, [role="button"]')) return;
    if (rowClick) void open();
  };

  return (
    <Card variant="outlined" data-testid="record-card" onClick={onCardClick} sx={{ cursor: rowClick ? 'pointer' : undefined }}>
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(88px, max-content) minmax(0, 1fr)', columnGap: 2, rowGap: 0.75, m: 0 }}>
          {fields.map((field, i) => (
            <Box key={field.key ?? i} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ color: 'text.secondary', typography: 'caption', lineHeight: 1.8 }}>
                {field.props.label !== false && <FieldTitle label={field.props.label as string | undefined} source={field.props.source} resource={resource} />}
              </Box>
              <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                {field}
              </Box>
            </Box>
          ))}
        </Box>
        {(opens || canExpand) && (
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            {opens && (
              <Button size="small" onClick={() => void open()}>
                Open
              </Button>
            )}
            {canExpand && (
              <Button size="small" aria-expanded={expanded} aria-label={expanded ? 'Collapse' : 'Expand'} onClick={() => setExpanded((e) => !e)}>
                {expanded ? 'Less' : 'More'}
              </Button>
            )}
          </Stack>
        )}
        {canExpand && expanded && (
          <Box sx={{ mt: 1, minWidth: 0 }}>{isValidElement(expand) ? expand : createElement(expand as ComponentType)}</Box>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * A list's rows as cards, for phones (ResponsiveDatagrid picks it): takes a Datagrid's field
 * children, `rowClick` and `expand`, so each list declares its columns once.
 */
export function RecordCards({ children, rowClick, expand, 'data-testid': testId }: { children: ReactNode; rowClick?: RowClick; expand?: DatagridProps['expand']; 'data-testid'?: string }) {
  const { data, isPending } = useListContext();
  const fields = Children.toArray(children).filter((c): c is ReactElement<FieldProps> => isValidElement(c));
  if (isPending) return <LinearProgress sx={{ m: 2 }} />;
  if (!data?.length) return <ListNoResults />;
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid={testId}>
      {data.map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <RecordCard record={record} fields={fields} rowClick={rowClick} expand={expand} />
        </RecordContextProvider>
      ))}
    </Stack>
  );
}
