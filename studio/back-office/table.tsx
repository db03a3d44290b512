import { Box, Text } from '@sanity/ui';
import type { ReactNode } from 'react';

/**
 * A table of rows with a caption: what a screen reader names it by and moves through cell by cell. The
 * Studio's UI kit has none, so it is plain HTML in the kit's text.
 */

export type Column<T> = { title: string; cell: (row: T) => ReactNode };

const CELL = {
  padding: '6px 12px 6px 0',
  textAlign: 'start',
  verticalAlign: 'top',
  borderBottom: '1px solid var(--card-border-color)',
} as const;

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
}) {
  return (
    <Box overflow="auto">
      <table style={{ borderCollapse: 'collapse', width: '100%' }}>
        <caption style={{ textAlign: 'start', paddingBottom: 8 }}>
          <Text size={1} weight="semibold">
            {caption}
          </Text>
        </caption>
        <thead>
          <tr>
            {columns.map(({ title }) => (
              <th key={title} scope="col" style={CELL}>
                <Text size={1} weight="medium" muted>
                  {title}
                </Text>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)}>
              {columns.map(({ title, cell }) => (
                <td key={title} style={CELL}>
                  <Text size={1}>{cell(row)}</Text>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}
