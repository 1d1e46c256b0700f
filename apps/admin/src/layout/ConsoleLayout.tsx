import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

// react-admin's layout is at least as wide as its content (min-width: fit-content), so one wide
// table made every page scroll sideways. Held to the screen instead: wide content scrolls or wraps
// inside its own box (docs/console.md, "Screen sizes").
// A list's main column is a flex item, which would grow to its table's width the same way.
const fitScreen = { minWidth: 0, '& .RaLayout-content, & .RaList-main': { minWidth: 0 } };

export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <Layout menu={ConsoleMenu} appBar={ConsoleAppBar} sx={fitScreen}>
      {children}
    </Layout>
  );
}
