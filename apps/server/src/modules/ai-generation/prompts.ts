import {
  type AiComponent,
  describeComponentsForPrompt,
  localeInfo,
  type RewritableSection,
} from '@letterset/core';
import type { ModelMessage } from 'ai';

/**
 * The words Letterset says to a model. Model output is data: the rules say so, and the answer is
 * checked anyway (see core's generated-content).
 */

const outputRules = [
  'Write every value as plain data for its field: text for text fields, simple HTML (p, strong, em, a, ul, ol, li) for rich text, an https:// or mailto: link for URLs.',
  'Never write template or personalization syntax such as {{ }}, {% %} or %%…%%; never write scripts, styles or other code.',
  'Respect each field’s rules (lengths, required values, choices).',
];

/** The agent's voice and context, or a neutral voice when no agent was chosen. */
function voiceOf(agentDescription: string | null): string {
  return agentDescription?.trim()
    ? `Write in the voice of this company, following its guidelines:\n${agentDescription.trim()}`
    : 'Write in a clear, friendly, professional voice.';
}

function localeLine(locale: string): string {
  return `Write in ${localeInfo(locale)?.name ?? locale} (${locale}).`;
}

export function composeEmailPrompt(input: {
  brief: string;
  components: readonly AiComponent[];
  agentDescription: string | null;
  locale: string;
}): { system: string; messages: ModelMessage[] } {
  return {
    system: [
      'You write marketing emails from an email design system: an email is a list of sections, each one of the components below with values for its fields.',
      'Choose the components whose descriptions fit the brief, in a sensible order (a typical email has 3 to 8 sections), and write their values.',
      voiceOf(input.agentDescription),
      localeLine(input.locale),
      ...outputRules,
      `Components:\n${describeComponentsForPrompt(input.components)}`,
    ].join('\n\n'),
    messages: [{ role: 'user', content: `Brief:\n${input.brief}` }],
  };
}

export function rewriteEmailPrompt(input: {
  brief: string;
  sections: readonly RewritableSection[];
  subject: string;
  preheader: string;
  agentDescription: string | null;
  locale: string;
}): { system: string; messages: ModelMessage[] } {
  const current = {
    subject: input.subject,
    preheader: input.preheader,
    sections: Object.fromEntries(
      input.sections.map((section) => [
        section.instanceId,
        { component: section.component.component.name, values: section.current },
      ]),
    ),
  };
  return {
    system: [
      'You rewrite the values of an existing marketing email. Keep its structure: the same sections, by their ids, each with a value for every field. Rewrite what the instructions ask for; keep what they do not touch.',
      voiceOf(input.agentDescription),
      localeLine(input.locale),
      ...outputRules,
      `Components of the sections:\n${describeComponentsForPrompt(uniqueComponents(input.sections))}`,
    ].join('\n\n'),
    messages: [
      {
        role: 'user',
        content: `Instructions:\n${input.brief}\n\nThe email now (JSON):\n${JSON.stringify(current, null, 2)}`,
      },
    ],
  };
}

function uniqueComponents(sections: readonly RewritableSection[]): AiComponent[] {
  return [
    ...new Map(sections.map((section) => [section.component.component.id, section.component])).values(),
  ];
}
