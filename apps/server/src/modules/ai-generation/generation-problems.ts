import type { AiComponent, GenerationProblem, RewritableSection } from '@letterset/core';

/**
 * Where a problem is, in the words of the editor: "Button › Link", "Subject". The paths of a
 * problem (`sections[1].values.url`) are the model's, kept for its repairs; people read these.
 */
export type ProblemPlace = (path: string) => string;

/** The answer's own places, before any section: the same for a composed and a rewritten email. */
function envelopePlace(path: string): string | undefined {
  if (path === '') return 'The AI’s answer';
  if (path === 'subject') return 'Subject';
  if (path === 'preheader') return 'Preheader';
  if (path === 'sections') return 'Sections';
  return undefined;
}

/**
 * The sections as people tell them apart: by their component's label, numbered ("Button 2") only
 * when the label is there more than once.
 */
function sectionNames(components: readonly AiComponent[]): string[] {
  const counts = new Map<string, number>();
  for (const { component } of components) counts.set(component.label, (counts.get(component.label) ?? 0) + 1);
  const seen = new Map<string, number>();
  return components.map(({ component }) => {
    const ordinal = (seen.get(component.label) ?? 0) + 1;
    seen.set(component.label, ordinal);
    return (counts.get(component.label) ?? 0) > 1 ? `${component.label} ${ordinal}` : component.label;
  });
}

function fieldPlace(section: string, component: AiComponent, variable: string | undefined): string {
  if (variable === undefined) return section;
  const field = component.fields.find((candidate) => candidate.liquid_variable === variable);
  return `${section} › ${field?.label ?? variable}`;
}

/** The places of a composed email's problems, read from the model's answer they were found in. */
export function composedProblemPlace(answer: unknown, components: readonly AiComponent[]): ProblemPlace {
  const byName = new Map(components.map((entry) => [entry.component.name, entry]));
  const rawSections = (answer as { sections?: unknown } | null)?.sections;
  // A section whose component is unknown is dropped, so the others are numbered without it.
  const kept = (Array.isArray(rawSections) ? rawSections : []).map((raw) => {
    const name = (raw as { component?: unknown } | null)?.component;
    return typeof name === 'string' ? byName.get(name) : undefined;
  });
  const known = kept.filter((entry): entry is AiComponent => entry !== undefined);
  const names = sectionNames(known);
  return (path) => {
    const envelope = envelopePlace(path);
    if (envelope) return envelope;
    const match = /^sections\[(\d+)\](?:\.values(?:\.(.+))?|\.component)?$/.exec(path);
    if (!match) return path;
    const index = Number(match[1]);
    const component = kept[index];
    if (!component) return `Section ${index + 1}`;
    const position = kept.slice(0, index).filter((entry) => entry !== undefined).length;
    return fieldPlace(names[position] ?? component.component.label, component, match[2]);
  };
}

/** The places of a rewritten email's problems: its sections are the email's own. */
export function rewrittenProblemPlace(sections: readonly RewritableSection[]): ProblemPlace {
  const names = sectionNames(sections.map((section) => section.component));
  const byInstance = new Map(sections.map((section, index) => [section.instanceId, index]));
  return (path) => {
    const envelope = envelopePlace(path);
    if (envelope) return envelope;
    if (!path.startsWith('sections.')) return path;
    const rest = path.slice('sections.'.length);
    for (const [instanceId, index] of byInstance) {
      const section = sections[index];
      if (!section) continue;
      if (rest === instanceId) return names[index] ?? section.component.component.label;
      if (rest.startsWith(`${instanceId}.`)) {
        const name = names[index] ?? section.component.component.label;
        return fieldPlace(name, section.component, rest.slice(instanceId.length + 1));
      }
    }
    return path;
  };
}

/** The problems for people, one a line, each at its place. */
export function describeProblemsAt(problems: readonly GenerationProblem[], placeOf: ProblemPlace): string {
  return problems.map((problem) => `- ${placeOf(problem.path)}: ${problem.message}`).join('\n');
}

/** A component's parts as the component builder names them. */
const componentPartLabels: Record<string, string> = {
  name: 'Name',
  label: 'Label',
  description: 'Description',
  template: 'Template',
  field_definitions: 'Fields',
  liquid_variable: 'Liquid variable',
  default_value: 'Default value',
  type: 'Type',
  validations: 'Validations',
  path: 'Path',
  value: 'Value',
};

const partLabel = (part: string) =>
  componentPartLabels[part] ?? `${part.charAt(0).toUpperCase()}${part.slice(1).replaceAll('_', ' ')}`;

/** "field_definitions.1.liquid_variable" of a component → "Field “Title” › Liquid variable". */
function componentPartPlace(rest: string, fields: readonly { label?: unknown }[]): string {
  const field = /^field_definitions\.(\d+)(?:\.(.+))?$/.exec(rest);
  if (field) {
    const index = Number(field[1]);
    const label = fields[index]?.label;
    const name = typeof label === 'string' && label !== '' ? `Field “${label}”` : `Field ${index + 1}`;
    return field[2] ? `${name} › ${field[2].split('.').map(partLabel).join(' › ')}` : name;
  }
  return rest.split('.').map(partLabel).join(' › ');
}

/**
 * The places of a designed system's problems for people: "Component 3 “Hero” › Template",
 * "Container › Template", "Design token 2 › Path", never the model's `components.2 (hero).template`.
 */
export function designSystemProblemPlace(
  components: readonly {
    index: number;
    component: { label: string; field_definitions: readonly { label?: unknown }[] };
  }[],
  container: { field_definitions: readonly { label?: unknown }[] } | null,
): ProblemPlace {
  const byIndex = new Map(components.map((entry) => [entry.index, entry.component]));
  return (path) => {
    if (path === '') return 'The AI’s answer';
    if (path === 'components') return 'Components';
    if (path === 'design_tokens') return 'Design tokens';
    const token = /^design_tokens\.(\d+)(?:\.(.+))?$/.exec(path);
    if (token) return `Design token ${Number(token[1]) + 1}${token[2] ? ` › ${partLabel(token[2])}` : ''}`;
    if (path === 'container') return 'Container';
    if (path.startsWith('container.'))
      return `Container › ${componentPartPlace(path.slice('container.'.length), container?.field_definitions ?? [])}`;
    const component = /^components\.(\d+)(?: \([^)]*\))?(?:\.(.+))?$/.exec(path);
    if (!component) return path;
    const index = Number(component[1]);
    const read = byIndex.get(index);
    const name = read?.label ? `Component ${index + 1} “${read.label}”` : `Component ${index + 1}`;
    return component[2]
      ? `${name} › ${componentPartPlace(component[2], read?.field_definitions ?? [])}`
      : name;
  };
}
