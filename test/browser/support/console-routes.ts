import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// Every address of the console, read from its source rather than listed by hand, so a page added
// later is walked by the responsive test (test/browser/responsive.spec.ts) without anyone
// remembering to add it: each <Resource name=… list/show/edit/create> gives its pages, each
// <Route path=…> a custom page. Conditions on the role are left to the walk: it visits every
// route as each login and counts the ones the console does not answer with "not found".

const ADMIN_SRC = join(__dirname, '..', '..', '..', 'apps', 'admin', 'src');

export type PageKind = 'dashboard' | 'list' | 'show' | 'edit' | 'create' | 'custom';

export interface ConsoleRoute {
  /** The path after `#`, with `:id` (resource pages) or the route's own parameters. */
  path: string;
  kind: PageKind;
  /** The resource of a resource page. */
  resource?: string;
  /** Where it was declared, for the test's messages. */
  source: string;
}

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsxFiles(path);
    return path.endsWith('.tsx') ? [path] : [];
  });
}

type JsxTag = ts.JsxSelfClosingElement | ts.JsxOpeningElement;

/** The value of a JSX attribute that is a string: `name="x"`, `name={'x'}` or `name={resource('x')}`. */
function stringAttribute(tag: JsxTag, name: string): string | undefined {
  const attr = tag.attributes.properties.find((p): p is ts.JsxAttribute => ts.isJsxAttribute(p) && p.name.getText() === name);
  const init = attr?.initializer;
  if (!init) return undefined;
  if (ts.isStringLiteral(init)) return init.text;
  const expr = ts.isJsxExpression(init) ? init.expression : undefined;
  if (!expr) return undefined;
  if (ts.isStringLiteralLike(expr)) return expr.text;
  if (ts.isCallExpression(expr) && expr.arguments.length === 1 && ts.isStringLiteralLike(expr.arguments[0])) return expr.arguments[0].text;
  return undefined;
}

/** True when the tag sets `name` to something other than a literal `undefined`. */
function hasAttribute(tag: JsxTag, name: string): boolean {
  return tag.attributes.properties.some(
    (p) => ts.isJsxAttribute(p) && p.name.getText() === name && !(p.initializer && ts.isJsxExpression(p.initializer) && p.initializer.expression?.getText() === 'undefined'),
  );
}

/** The console's routes: the dashboard, every resource page and every custom route. */
export function consoleRoutes(): ConsoleRoute[] {
  const routes: ConsoleRoute[] = [{ path: '/', kind: 'dashboard', source: 'the dashboard' }];
  for (const file of tsxFiles(ADMIN_SRC)) {
    const text = readFileSync(file, 'utf8');
    if (!/<(Resource|Route)\b/.test(text)) continue;
    const source = relative(ADMIN_SRC, file);
    const visit = (node: ts.Node): void => {
      if (ts.isJsxSelfClosingElement(node) || ts.isJsxOpeningElement(node)) {
        const tag = node.tagName.getText();
        if (tag === 'Resource') {
          const resource = stringAttribute(node, 'name');
          if (!resource) throw new Error(`${source}: a <Resource> whose name is not a string literal; teach console-routes.ts to read it`);
          const pages: [PageKind, string][] = [
            ['list', `/${resource}`],
            ['create', `/${resource}/create`],
            ['show', `/${resource}/:id/show`],
            ['edit', `/${resource}/:id`],
          ];
          for (const [kind, path] of pages) if (hasAttribute(node, kind)) routes.push({ path, kind, resource, source });
        } else if (tag === 'Route') {
          const path = stringAttribute(node, 'path');
          if (!path) throw new Error(`${source}: a <Route> whose path is not a string literal; teach console-routes.ts to read it`);
          routes.push({ path, kind: 'custom', source });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX));
  }
  return routes;
}

/**
 * The route's address with its parameters filled in: `:id` of a resource page from `ids`
 * (by resource), a custom route's parameters from `params` (by the route's path).
 */
export function addressOf(route: ConsoleRoute, ids: Record<string, string>, params: Record<string, Record<string, string>>): string {
  const values = route.resource ? { id: ids[route.resource] } : (params[route.path] ?? {});
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name as keyof typeof values];
    if (!value) throw new Error(`No value for :${name} of ${route.path} (${route.source}): give the responsive test a record for it`);
    return encodeURIComponent(value);
  });
}
