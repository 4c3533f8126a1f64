import {
  type BranchSelection,
  type BrandProfileDefinition,
  type ComponentDefinition,
  type ConditionalDefinition,
  type DesignSystemDefinition,
  type EmailContent,
  type LinkTrackingProfileDefinition,
  type PersonalizationTagDefinition,
  renderHtml,
} from '@letterset/core';

/**
 * The comments the preview puts before and after each instance's HTML: a click finds its instance
 * by the first, and an edit of one instance replaces only what lies between its two.
 */
const markerPrefix = 'es-instance:';
const endMarkerPrefix = 'es-end:';
const instanceIdTag = '{{ render_context.component_instance.id }}';
const markerTemplate = `<!--${markerPrefix}${instanceIdTag}-->`;
const endMarkerTemplate = `<!--${endMarkerPrefix}${instanceIdTag}-->`;

const markedComponents = new WeakMap<ComponentDefinition[], ComponentDefinition[]>();

/**
 * The components with every body template opening with a marker comment naming the instance it
 * renders. The container is left alone: what is outside every instance belongs to it. Kept per
 * components array, so the render's template cache sees the same strings every keystroke.
 */
export function withInstanceMarkers(components: ComponentDefinition[]): ComponentDefinition[] {
  const cached = markedComponents.get(components);
  if (cached) return cached;
  const marked = components.map((component) =>
    component.container
      ? component
      : { ...component, template: markerTemplate + component.template + endMarkerTemplate },
  );
  markedComponents.set(components, marked);
  return marked;
}

export interface PreviewInput {
  designSystem: DesignSystemDefinition;
  components: ComponentDefinition[];
  brandProfile: BrandProfileDefinition | null;
  content: EmailContent;
  locale: string;
  branchSelection: BranchSelection;
  personalizationTags: readonly PersonalizationTagDefinition[];
  /** The email's link tracking profile, so the preview's links carry its parameters. */
  linkTrackingProfile: LinkTrackingProfileDefinition | null;
  /** The workspace's conditionals, so link tracking reaches the defaults of every branch. */
  conditionals: readonly ConditionalDefinition[];
  emailName: string;
  /** Tags show their names (`{First name}`) instead of their example values. */
  showPersonalizationTagNames?: boolean;
}

/** The email as the editor shows it: core's render in `editor_preview` mode, with instance markers. */
export function renderPreview(input: PreviewInput): string {
  return renderHtml({
    designSystem: input.designSystem,
    components: withInstanceMarkers(input.components),
    brandProfile: input.brandProfile,
    content: input.content,
    locale: input.locale,
    mode: 'editor_preview',
    branchSelection: input.branchSelection,
    email: { id: null, name: input.emailName },
    dynamicContent: {
      personalizationTags: input.personalizationTags,
      linkTrackingProfile: input.linkTrackingProfile,
      conditionals: input.conditionals,
      showPersonalizationTagNames: input.showPersonalizationTagNames === true,
    },
  }).html;
}

/**
 * The email in one locale as a file export makes it: export mode (dynamic content resolved to its
 * defaults), CSS inlined, no editor markers. What the editor's Download HTML saves. The CSS
 * inliner is loaded on the first download: the editor's preview never needs it.
 */
export async function renderForDownload(
  input: Omit<PreviewInput, 'branchSelection' | 'showPersonalizationTagNames'>,
): Promise<string> {
  const { render } = await import('@letterset/core/render-email');
  return render({
    designSystem: input.designSystem,
    components: input.components,
    brandProfile: input.brandProfile,
    content: input.content,
    locale: input.locale,
    mode: 'export',
    inlineCss: true,
    email: { id: null, name: input.emailName },
    dynamicContent: {
      personalizationTags: input.personalizationTags,
      linkTrackingProfile: input.linkTrackingProfile,
      conditionals: input.conditionals,
    },
  }).html;
}

/**
 * Tags every element that an instance rendered with `data-es-instance`, reading the marker
 * comments: the elements after a marker, up to the next marker among the same siblings.
 */
export function tagInstances(root: ParentNode & Node): void {
  const document = root.ownerDocument ?? (root as Document);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const markers: Comment[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if ((node as Comment).data.startsWith(markerPrefix)) markers.push(node as Comment);
  }
  for (const marker of markers) {
    // `<table><!--marker--><tr>` parses with an implied <tbody> after the comment: the rows the
    // marker announces are inside it, so the marker belongs there too.
    const next = nextElement(marker);
    if (marker.parentElement?.tagName === 'TABLE' && next?.tagName === 'TBODY') next.prepend(marker);
  }
  for (const marker of markers) {
    const instanceId = marker.data.slice(markerPrefix.length);
    tagUntilNextMarker(marker, instanceId);
  }
}

function isMarker(node: Node): boolean {
  if (node.nodeType !== Node.COMMENT_NODE) return false;
  const { data } = node as Comment;
  return data.startsWith(markerPrefix) || data.startsWith(endMarkerPrefix);
}

/** Tags the elements after a marker with its instance, up to the next marker among its siblings. */
function tagUntilNextMarker(marker: Comment, instanceId: string): void {
  for (let sibling = marker.nextSibling; sibling && !isMarker(sibling); sibling = sibling.nextSibling) {
    if (sibling.nodeType === Node.ELEMENT_NODE)
      (sibling as Element).setAttribute('data-es-instance', instanceId);
  }
}

function nextElement(node: Node): Element | null {
  for (let sibling = node.nextSibling; sibling; sibling = sibling.nextSibling) {
    if (sibling.nodeType === Node.ELEMENT_NODE) return sibling as Element;
  }
  return null;
}

/** What a click in the preview points at: the instance (null: the container) and the field, if marked. */
export function clickTarget(element: Element | null): { instanceId: string | null; field: string | null } {
  const instance = element?.closest('[data-es-instance]');
  const field = element?.closest('[data-es-field-focus]');
  return {
    instanceId: instance?.getAttribute('data-es-instance') ?? null,
    field: field?.getAttribute('data-es-field-focus') ?? null,
  };
}

/**
 * Puts freshly rendered HTML into the preview document without reloading it. When `shownHtml` (what
 * the document shows now) and `html` differ inside one instance only (an edit of its fields), only
 * that instance's elements are replaced: the rest of the email keeps its DOM nodes, so a keystroke
 * costs the parse and layout of one block, not of the whole email. Otherwise the whole body is.
 */
export function updatePreviewHtml(
  document: Document,
  html: string,
  shownHtml: string | null,
  parser = new DOMParser(),
): void {
  if (html === shownHtml) return;
  const change = shownHtml === null ? null : changedInstance(shownHtml, html);
  if (change && replaceInstanceHtml(document, change.instanceId, change.html)) return;
  applyPreviewHtml(document, html, parser);
}

/**
 * The instance whose HTML (between its two markers) holds every difference between two renders of
 * the same email, and its new HTML; null when a difference lies elsewhere (head, container, order).
 */
export function changedInstance(before: string, after: string): { instanceId: string; html: string } | null {
  const shortest = Math.min(before.length, after.length);
  let start = 0;
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start += 1;
  let beforeEnd = before.length;
  let afterEnd = after.length;
  while (
    beforeEnd > start &&
    afterEnd > start &&
    before.charCodeAt(beforeEnd - 1) === after.charCodeAt(afterEnd - 1)
  ) {
    beforeEnd -= 1;
    afterEnd -= 1;
  }
  const open = before.lastIndexOf(`<!--${markerPrefix}`, start);
  if (open === -1) return null;
  const openEnd = before.indexOf('-->', open) + '-->'.length;
  // The difference starts in the marker itself: another instance there.
  if (openEnd > start) return null;
  const instanceId = before.slice(open + `<!--${markerPrefix}`.length, openEnd - '-->'.length);
  const close = before.indexOf(`<!--${endMarkerPrefix}${instanceId}-->`, openEnd);
  // The difference runs past the instance's end, or another marker lies inside it.
  if (close === -1 || close < beforeEnd || before.indexOf('<!--es-', openEnd) !== close) return null;
  return { instanceId, html: after.slice(openEnd, close + afterEnd - beforeEnd) };
}

/** Replaces what lies between an instance's two markers in the preview with `html`; false when they are not siblings there. */
function replaceInstanceHtml(document: Document, instanceId: string, html: string): boolean {
  let open: Comment | null = null;
  let close: Comment | null = null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
  for (let node = walker.nextNode(); node && !close; node = walker.nextNode()) {
    const { data } = node as Comment;
    if (data === `${markerPrefix}${instanceId}`) open = node as Comment;
    else if (data === `${endMarkerPrefix}${instanceId}`) close = node as Comment;
  }
  const parent = open?.parentNode;
  if (!open || !close || !parent || close.parentNode !== parent) return false;
  const range = document.createRange();
  range.setStartAfter(open);
  range.setEndBefore(close);
  // Parsed where it goes (rows inside their table body), as the whole document's parse would.
  const fragment = range.createContextualFragment(html);
  range.deleteContents();
  parent.insertBefore(fragment, close);
  tagUntilNextMarker(open, instanceId);
  return true;
}

/**
 * Puts freshly rendered HTML into the preview document without reloading it: the head when it
 * changed, the body always. Listeners on the document and the scroll position survive.
 */
export function applyPreviewHtml(document: Document, html: string, parser = new DOMParser()): void {
  const next = parser.parseFromString(html, 'text/html');
  if (document.head.innerHTML !== next.head.innerHTML) document.head.innerHTML = next.head.innerHTML;
  for (const attribute of [...document.body.attributes]) document.body.removeAttribute(attribute.name);
  for (const attribute of [...next.body.attributes])
    document.body.setAttribute(attribute.name, attribute.value);
  document.body.replaceChildren(...next.body.childNodes);
  tagInstances(document.body);
}
