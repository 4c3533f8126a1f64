import serializeDom from 'dom-serializer';
import type { ChildNode } from 'domhandler';

/** dom-serializer's void elements: no closing tag in HTML. */
export const voidElements = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * What dom-serializer writes for HTML parsed with entities left as written
 * (`{ decodeEntities: false }`), built into one string instead of a string per element; SVG and
 * MathML, which it writes in its foreign (XML-like) mode, are handed to it.
 */
export function serializeHtml(nodes: readonly ChildNode[]): string {
  let html = '';
  const write = (node: ChildNode): void => {
    switch (node.type) {
      case 'text':
        html += node.data;
        return;
      case 'comment':
        html += `<!--${node.data}-->`;
        return;
      case 'directive':
        html += `<${node.data}>`;
        return;
      case 'tag':
      case 'script':
      case 'style': {
        if (node.name === 'svg' || node.name === 'math') {
          html += serializeDom(node, { decodeEntities: false });
          return;
        }
        html += `<${node.name}`;
        // for…in, not Object.keys: the same order for the parser's plain objects, without an array.
        for (const name in node.attribs) {
          const value = node.attribs[name] ?? '';
          html +=
            value === ''
              ? ` ${name}`
              : ` ${name}="${value.includes('"') ? value.replaceAll('"', '&quot;') : value}"`;
        }
        html += '>';
        for (const child of node.children) write(child);
        if (!voidElements.has(node.name)) html += `</${node.name}>`;
        return;
      }
      default:
        html += serializeDom(node, { decodeEntities: false });
    }
  };
  for (const node of nodes) write(node);
  return html;
}
