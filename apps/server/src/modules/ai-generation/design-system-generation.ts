import {
  type CustomStyle,
  designSystemGenerationSchema,
  type GeneratedComponent,
  type GenerationProblem,
  mergeDesignTokens,
  minimalContainer,
  readGeneratedDesignSystem,
  unsafeMarkupProblems,
} from '@letterset/core';
import type { JSONSchema7 } from 'ai';
import { and, asc, eq } from 'drizzle-orm';
import type { Value } from 'typebox/value';
import { finishedAiGenerationStatus } from '../../db/ai-generation-status.ts';
import type { Database } from '../../db/client.ts';
import { components, componentVersions, emailDesignSystems } from '../../db/schema.ts';
import { HttpError, NotFoundError } from '../../http/errors.ts';
import { type FieldErrors, fieldErrorsFromAjv } from '../../http/validation-messages.ts';
import { AiProviderError, openAiClient } from '../../integrations/ai/ai-client.ts';
import { generateWithRepairs } from '../../integrations/ai/generate-with-repairs.ts';
import type { JobPayloads } from '../../jobs/job-payloads.ts';
import type { Renderer } from '../../render-pool/render-pool.ts';
import type { Services } from '../../services.ts';
import { describeAgentForPrompt, loadAiAgent } from '../ai-agents/ai-agent-prompt.ts';
import { FieldDefinition } from '../components/components.schemas.ts';
import { componentProblems, versionOf } from '../components/components.service.ts';
import { DesignSystemComponentJson } from '../email-design-systems/email-design-systems.schemas.ts';
import {
  type DesignSystemDocument,
  documentProblems,
} from '../email-design-systems/email-design-systems.transfer.ts';
import { publishStarterImages } from '../organizations/starter-images.ts';
import { designSystemPrompt } from './design-system-prompt.ts';
import { describeProblemsAt, designSystemProblemPlace, type ProblemPlace } from './generation-problems.ts';

export type DesignSystemGenerationRequest = JobPayloads['design-system-generation'];

export type DesignSystemGenerationOutcome = 'written' | 'written_with_problems' | 'failed' | 'skipped';

/** How many components the model is asked for; outside the range it is asked again. */
const wantedComponents = { min: 6, max: 12 };

type SystemRow = typeof emailDesignSystems.$inferSelect;

/**
 * Designs a design system's container and components with AI from its brief, writes the valid
 * ones in one transaction, then marks the generation done, with what could not be done in
 * `ai_generation_error`. Whatever happens the system ends `done`: only a shutdown (the signal)
 * leaves it generating, for the job to run again.
 */
export async function runDesignSystemGeneration(
  services: Pick<Services, 'database' | 'storage' | 'renderer' | 'config' | 'secrets' | 'log'>,
  request: DesignSystemGenerationRequest,
  signal: AbortSignal,
): Promise<DesignSystemGenerationOutcome> {
  const db = services.database.db;
  const [system] = await db
    .select()
    .from(emailDesignSystems)
    .where(eq(emailDesignSystems.id, request.email_design_system_id));
  if (system?.aiGenerationStatus !== 'generating') return 'skipped';
  try {
    const design = await designComponents(services, system, request, signal);
    const notes = await writeDesign(db, system.id, request.user_id, design);
    return notes.length > 0 ? 'written_with_problems' : 'written';
  } catch (error) {
    if (signal.aborted) throw error;
    let message: string;
    if (error instanceof AiProviderError || error instanceof HttpError) message = error.message;
    else {
      services.log.error({ err: error, emailDesignSystemId: system.id }, 'design system generation failed');
      message =
        'The design system could not be generated because of an error in Letterset; it is logged on the server.';
    }
    await markFailed(db, system.id, message);
    return 'failed';
  }
}

/** A component the model designed, with what is still wrong with it (empty: it can be written). */
interface CheckedComponent {
  component: GeneratedComponent;
  /** Where it was in the answer, for messages. */
  index: number;
  problems: GenerationProblem[];
}

interface CheckedDesign {
  container: GeneratedComponent | null;
  containerProblems: GenerationProblem[];
  components: CheckedComponent[];
  designTokens: Record<string, unknown>;
  /** Problems of the answer as a whole: its structure, token paths, the number of components. */
  generalProblems: GenerationProblem[];
}

interface Design {
  check: CheckedDesign | null;
  /** What could not be read at all, when `check` is null. */
  unreadable: GenerationProblem[];
  notes: string[];
}

async function designComponents(
  services: Pick<Services, 'database' | 'storage' | 'renderer' | 'config' | 'secrets' | 'log'>,
  system: SystemRow,
  request: DesignSystemGenerationRequest,
  signal: AbortSignal,
): Promise<Design> {
  const client = await openAiClient(services, {
    organizationId: system.organizationId,
    userId: request.user_id,
  });
  const notes: string[] = [];
  let agentDescription: string | null = null;
  if (request.ai_agent_id !== null) {
    try {
      agentDescription = describeAgentForPrompt(
        await loadAiAgent(services.database.db, system.workspaceId, request.ai_agent_id),
      );
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      notes.push(
        'The AI agent chosen was deleted before the design started; the system was designed without it.',
      );
    }
  }
  // Image defaults point at the pictures Letterset ships; without them the model picks URLs.
  const placeholderImagesUrl = await publishStarterImages(services.storage).catch(() => null);
  const prompt = designSystemPrompt({
    brief: system.prompt ?? '',
    name: system.name,
    description: system.description,
    agentDescription,
    customStyles: system.customStyles,
    designTokens: system.designTokens,
    placeholderImagesUrl,
  });
  const generation = await generateWithRepairs<CheckedDesign>(client, {
    feature: 'design_system_generation',
    ...prompt,
    schema: designSystemGenerationSchema() as JSONSchema7,
    read: async (value) => {
      const check = await checkDesign(services.renderer, value, system);
      return { result: check, problems: problemsOf(check) };
    },
    signal,
  });
  return { check: generation.result, unreadable: generation.result ? [] : generation.problems, notes };
}

/** Every problem of a checked answer, as the model reads it. */
function problemsOf(check: CheckedDesign): GenerationProblem[] {
  return [
    ...check.generalProblems,
    ...check.containerProblems,
    ...check.components.flatMap((checked) => checked.problems),
  ];
}

/**
 * Reads the model's answer and checks every component as an import would (the API's component
 * schema, its template, its field definitions, unique names), then renders the ones that pass
 * once with their default values.
 */
async function checkDesign(renderer: Renderer, value: unknown, system: SystemRow): Promise<CheckedDesign> {
  const read = readGeneratedDesignSystem(value);
  // Loaded by the first generation, not by every start: typebox/value takes about 0.4 s to load.
  const { Value: schemaValue } = await import('typebox/value');
  const styleNames = system.customStyles.map((style) => style.name);
  const generalProblems = [...read.problems];
  const containerProblems = read.container
    ? problemsAt('container', componentErrors(schemaValue, read.container, true, styleNames))
    : [];
  const names = new Set(read.container ? [read.container.name] : []);
  const checked: CheckedComponent[] = read.components.map((component, index) => {
    const errors = componentErrors(schemaValue, component, false, styleNames);
    if (component.name !== '' && names.has(component.name)) {
      errors.name = [...(errors.name ?? []), 'is used by another component (names must be unique)'];
    }
    names.add(component.name);
    return { component, index, problems: problemsAt(componentPath(component, index), errors) };
  });
  const count = read.components.length;
  if (Array.isArray((value as { components?: unknown } | null)?.components)) {
    if (count < wantedComponents.min || count > wantedComponents.max) {
      generalProblems.push({
        path: 'components',
        message: `give ${wantedComponents.min} to ${wantedComponents.max} components; this answer has ${count}`,
      });
    }
  }

  // Rendering needs a container: the model's when it is valid, else the one Letterset would use.
  const tokens = mergeDesignTokens(read.designTokens, system.designTokens);
  const container =
    read.container && containerProblems.length === 0 ? read.container : fallbackContainer(checked);
  const renderable = checked.filter((entry) => entry.problems.length === 0);
  // In the render pool, within one budget per answer: a model's runaway loop costs that answer.
  const rendered = await renderer.designSystemDefaults(
    {
      container,
      components: renderable.map((entry) => entry.component),
      designTokens: tokens,
      customStyles: system.customStyles as CustomStyle[],
    },
    renderer.budget(),
  );
  if (read.container && containerProblems.length === 0) {
    containerProblems.push(...rendered.container.map((message) => renderProblem('container', message)));
  }
  renderable.forEach((entry, position) => {
    for (const message of rendered.components[position] ?? []) {
      entry.problems.push(renderProblem(componentPath(entry.component, entry.index), message));
    }
  });
  return {
    container: read.container,
    containerProblems,
    components: checked,
    designTokens: read.designTokens,
    generalProblems,
  };
}

function componentPath(component: GeneratedComponent, index: number): string {
  return `components.${index}${component.name ? ` (${component.name})` : ''}`;
}

function renderProblem(path: string, message: string): GenerationProblem {
  return { path: `${path}.template`, message: `does not render with the fields’ default values: ${message}` };
}

function problemsAt(prefix: string, errors: FieldErrors): GenerationProblem[] {
  return Object.entries(errors).flatMap(([path, messages]) =>
    messages.map((message) => ({ path: `${prefix}.${path}`, message })),
  );
}

const nameMessage =
  'must be snake_case: a lower-case letter, then lower-case letters, digits or underscores (at most 64 characters)';

/**
 * The problems an import of this component would have, and HTML that is not email-safe, keyed by
 * their path in the component.
 */
function componentErrors(
  schemaValue: typeof Value,
  component: GeneratedComponent,
  container: boolean,
  styleNames: string[],
): FieldErrors {
  const shape = fieldErrorsFromAjv(
    schemaValue.Errors({ FieldDefinition }, DesignSystemComponentJson, component) as never,
    'component',
  );
  if (shape.name) shape.name = [nameMessage];
  if (component.template.trim() === '') shape.template = ["can't be blank"];
  const unsafe = unsafeMarkupProblems(component.template);
  if (unsafe.length > 0) shape.template = [...(shape.template ?? []), ...unsafe];
  const errors: FieldErrors = { ...shape };
  const checks = componentProblems(
    {
      template: component.template,
      fieldDefinitions: asDocumentComponent(component).field_definitions,
      container,
    },
    styleNames,
  );
  for (const [path, messages] of Object.entries(checks)) {
    errors[path] = [...new Set([...(errors[path] ?? []), ...messages])];
  }
  return errors;
}

/** The minimal container, under a name no component of the answer uses. */
function fallbackContainer(checked: readonly CheckedComponent[]): GeneratedComponent {
  const taken = new Set(checked.map((entry) => entry.component.name));
  const name =
    ['container', 'email_container'].find((candidate) => !taken.has(candidate)) ?? 'letterset_container';
  return minimalContainer(name);
}

/**
 * Writes the valid part of the design in one transaction, unless the system was deleted or is no
 * longer generating, and marks it done with what could not be done. Returns those notes.
 */
async function writeDesign(
  db: Database,
  systemId: number,
  userId: number,
  design: Design,
): Promise<string[]> {
  const notes = [...design.notes];
  const check = design.check;
  const placeOf = designSystemProblemPlace(check?.components ?? [], check?.container ?? null);
  if (!check) {
    notes.unshift(
      `The AI’s answer could not be read after two repairs (${design.unreadable.map((problem) => problem.message).join('; ')}), so Letterset added a minimal container and no components.`,
    );
  }
  const validComponents = check?.components.filter((entry) => entry.problems.length === 0) ?? [];
  const leftOut = check?.components.filter((entry) => entry.problems.length > 0) ?? [];
  const containerValid = check?.container != null && check.containerProblems.length === 0;
  if (check && !containerValid) {
    notes.push(
      check.container
        ? `The AI’s container still had problems after two repairs, so Letterset used a minimal container instead:\n${listed(check.containerProblems, placeOf)}`
        : 'The AI gave no container, so Letterset used a minimal container.',
    );
  }
  if (leftOut.length > 0) {
    notes.push(
      `${leftOut.length === 1 ? 'This component' : `These ${leftOut.length} components`} still had problems after two repairs and ${leftOut.length === 1 ? 'was' : 'were'} left out:\n${listed(
        leftOut.flatMap((entry) => entry.problems),
        placeOf,
      )}`,
    );
  }
  const general = check?.generalProblems ?? [];
  const tokenProblems = general.filter((problem) => problem.path.startsWith('design_tokens'));
  const otherProblems = general.filter((problem) => !problem.path.startsWith('design_tokens'));
  if (tokenProblems.length > 0) {
    notes.push(
      `These design tokens still had problems after two repairs and were left out:\n${listed(tokenProblems, placeOf)}`,
    );
  }
  if (otherProblems.length > 0) {
    notes.push(
      `The AI’s answer still had these problems after two repairs:\n${listed(otherProblems, placeOf)}`,
    );
  }

  const container =
    check?.container && containerValid
      ? check.container
      : fallbackContainer(check?.components.filter((entry) => entry.problems.length === 0) ?? []);
  const document: DesignSystemDocument = {
    email_design_system: {
      name: 'Generated design system',
      container_component: asDocumentComponent(container),
      components: validComponents.map((entry) => asDocumentComponent(entry.component)),
    },
  };
  // What is written must be what an import would accept; anything else is a bug here.
  const remaining = documentProblems(document);
  if (Object.keys(remaining).length > 0) {
    throw new Error(`checked components still have problems: ${JSON.stringify(remaining)}`);
  }

  await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(emailDesignSystems)
      .where(eq(emailDesignSystems.id, systemId))
      .for('update');
    if (current?.aiGenerationStatus !== 'generating') return;
    // Someone may have added components while the AI worked: theirs stay, the AI's give way.
    const existing = await tx
      .select({ name: components.name, container: components.container, position: components.position })
      .from(components)
      .where(eq(components.emailDesignSystemId, systemId))
      .orderBy(asc(components.position));
    const takenNames = new Set(existing.map((row) => row.name));
    const skipped: string[] = [];
    const toInsert: (DocumentComponent & { container: boolean })[] = [];
    if (existing.some((row) => row.container))
      skipped.push(`${container.name} (the system already has a container)`);
    else if (takenNames.has(container.name)) skipped.push(`${container.name} (the name is already taken)`);
    else toInsert.push({ ...document.email_design_system.container_component, container: true });
    for (const component of document.email_design_system.components) {
      if (takenNames.has(component.name)) skipped.push(`${component.name} (the name is already taken)`);
      else toInsert.push({ ...component, container: false });
    }
    if (skipped.length > 0) {
      notes.push(
        `Components added while the AI worked were kept; these were not written: ${skipped.join(', ')}.`,
      );
    }
    let position = Math.max(0, ...existing.map((row) => row.position ?? 0));
    if (toInsert.length > 0) {
      const rows = await tx
        .insert(components)
        .values(
          toInsert.map((component) => ({
            organizationId: current.organizationId,
            emailDesignSystemId: systemId,
            name: component.name,
            label: component.label,
            description: component.description ?? null,
            container: component.container,
            template: component.template,
            fieldDefinitions: component.field_definitions,
            position: component.container ? null : ++position,
            lastUpdatedById: userId,
          })),
        )
        .returning();
      await tx.insert(componentVersions).values(rows.map((row) => versionOf(row, userId)));
    }
    await tx
      .update(emailDesignSystems)
      .set({
        // Tokens set by hand (at creation or since) win over the AI's.
        designTokens: mergeDesignTokens(check?.designTokens ?? {}, current.designTokens),
        aiGenerationStatus: finishedAiGenerationStatus(notes.length > 0 ? notes.join('\n\n') : null),
        aiGenerationError: notes.length > 0 ? notes.join('\n\n') : null,
      })
      .where(eq(emailDesignSystems.id, systemId));
  });
  return notes;
}

type DocumentComponent = DesignSystemDocument['email_design_system']['components'][number];

/** Core's field definition type and the API schema's describe the same stored JSON. */
function asDocumentComponent(component: GeneratedComponent): DocumentComponent {
  return component as unknown as DocumentComponent;
}

/** Marks the generation failed with its error, unless the system is gone or already finished. */
async function markFailed(db: Database, systemId: number, error: string) {
  await db
    .update(emailDesignSystems)
    .set({ aiGenerationStatus: 'failed', aiGenerationError: error })
    .where(and(eq(emailDesignSystems.id, systemId), eq(emailDesignSystems.aiGenerationStatus, 'generating')));
}

/** At most 20 problems, one a line, each at its place as people name it, then how many more. */
function listed(problems: readonly GenerationProblem[], placeOf: ProblemPlace): string {
  const shown = problems.slice(0, 20);
  const more = problems.length - shown.length;
  return `${describeProblemsAt(shown, placeOf)}${more > 0 ? `\n…and ${more} more` : ''}`;
}
