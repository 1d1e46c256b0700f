import { parseMarkdown, type Block, type Inline } from './markdown';

/**
 * A reply as DOM: elements we choose, filled with text nodes. No string from the model or the
 * visitor is ever parsed as HTML, so markup in a reply shows as the characters it is.
 */
export function renderMarkdown(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const block of parseMarkdown(text)) fragment.append(renderBlock(block));
  return fragment;
}

function renderBlock(block: Block): HTMLElement {
  if (block.kind === 'p') return withChildren(document.createElement('p'), block.children);
  const list = document.createElement(block.ordered ? 'ol' : 'ul');
  for (const item of block.items) list.append(withChildren(document.createElement('li'), item));
  return list;
}

function withChildren<E extends HTMLElement>(el: E, children: Inline[]): E {
  for (const child of children) el.append(renderInline(child));
  return el;
}

function renderInline(node: Inline): Node {
  switch (node.kind) {
    case 'text':
      return document.createTextNode(node.text);
    case 'br':
      return document.createElement('br');
    case 'code': {
      const code = document.createElement('code');
      code.textContent = node.text;
      return code;
    }
    case 'link': {
      const a = withChildren(document.createElement('a'), node.children);
      a.href = node.href;
      a.target = '_blank';
      a.rel = 'noopener noreferrer nofollow';
      return a;
    }
    default:
      return withChildren(document.createElement(node.kind), node.children);
  }
}
