import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';

interface ArrayEditorProps<T> {
  /** Absolute form path of the array, e.g. `draft.flows.0.steps`. */
  name: string;
  newItem: () => T;
  addLabel: string;
  itemTitle: (item: T | undefined, index: number) => ReactNode;
  renderItem: (index: number) => ReactNode;
  empty?: ReactNode;
  /** `data-testid` of each item is `${testId}-${index}`. */
  testId: string;
  readOnly?: boolean;
  /** Called by an item's Remove instead of removing it, e.g. to confirm first; `remove()` removes it. */
  onRemove?: (index: number, remove: () => void) => void;
}

/** An ordered list of cards: add, remove, move up and down. The form keeps the array at `name`. */
export function ArrayEditor<T>({ name, newItem, addLabel, itemTitle, renderItem, empty, testId, readOnly, onRemove }: ArrayEditorProps<T>) {
  const { control } = useFormContext();
  // keyName: our items carry their own `id` (step and flow ids), which must not be overwritten.
  const { fields, append, remove, move } = useFieldArray({ control, name, keyName: '_key' });
  const values = (useWatch({ name }) ?? []) as T[];

  return (
    <Stack spacing={1.5} sx={{ width: '100%' }}>
      {fields.length === 0 && empty}
      {fields.map((field, index) => (
        <Paper key={field._key} variant="outlined" sx={{ p: 1.5 }} data-testid={`${testId}-${index}`}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
            <Typography variant="subtitle2" sx={{ flex: 1 }}>
              {itemTitle(values[index], index)}
            </Typography>
            {!readOnly && (
              <>
                <Tooltip title="Move up">
                  <span>
                    <IconButton size="small" aria-label="Move up" disabled={index === 0} onClick={() => move(index, index - 1)}>
                      <ArrowUpwardIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Move down">
                  <span>
                    <IconButton size="small" aria-label="Move down" disabled={index === fields.length - 1} onClick={() => move(index, index + 1)}>
                      <ArrowDownwardIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Remove">
                  <IconButton size="small" aria-label="Remove" onClick={() => (onRemove ? onRemove(index, () => remove(index)) : remove(index))}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </>
            )}
          </Box>
          {renderItem(index)}
        </Paper>
      ))}
      {!readOnly && (
        <Box>
          <Button size="small" startIcon={<AddIcon />} onClick={() => append(newItem() as never)}>
            {addLabel}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
