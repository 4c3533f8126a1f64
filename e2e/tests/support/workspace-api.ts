import { expect, type Page } from '@playwright/test';
import { solidPng } from './png.ts';

// The first-run screen makes one workspace, so every app test seeds its data in workspace 1.
export const workspaceId = 1;
// Most seeding calls are workspace-scoped; one prefix keeps their paths short.
export const workspaceApi = `/api/v1/workspaces/${workspaceId}`;

// Seeding goes through the API; a refused call fails the test with the API's answer, not later on.
export async function postJson<T>(page: Page, path: string, data: object): Promise<T> {
  const response = await page.request.post(path, { data });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

// Emails live in a project, and a project belongs to a team: a test makes both of its own.
export async function createProjectWithTeam(
  page: Page,
  {
    teamName,
    projectName = teamName,
    badgeColor,
  }: { teamName: string; projectName?: string; badgeColor: string },
): Promise<{ teamId: number; projectId: number }> {
  const team = await postJson<{ id: number }>(page, '/api/v1/teams', {
    name: teamName,
    workspace_id: workspaceId,
    badge_color: badgeColor,
  });
  const project = await postJson<{ id: number }>(page, `${workspaceApi}/projects`, {
    name: projectName,
    team_id: team.id,
  });
  return { teamId: team.id, projectId: project.id };
}

// A real one-colour PNG in the image library, so a test has a library picture without fixture files.
export async function uploadPng(
  page: Page,
  {
    name,
    fileName,
    colour,
    width,
    height,
  }: { name: string; fileName: string; colour: [number, number, number]; width: number; height: number },
): Promise<{ id: string; public_url: string }> {
  const uploaded = await page.request.post(`${workspaceApi}/images`, {
    multipart: {
      name,
      file: { name: fileName, mimeType: 'image/png', buffer: solidPng(width, height, colour) },
    },
  });
  expect(uploaded.ok(), await uploaded.text()).toBe(true);
  return (await uploaded.json()) as { id: string; public_url: string };
}

export interface StarterComponent {
  id: number;
  name: string;
  field_definitions: { liquid_variable: string; default_value?: unknown }[];
}

// Tests build emails from the seeded Letterset Starter, so they need its id and its components' ids.
export async function starterDesignSystem(page: Page): Promise<{
  id: number;
  components: StarterComponent[];
  componentNamed: (name: string) => StarterComponent;
}> {
  const systems = await page.request.get(`${workspaceApi}/email_design_systems`);
  expect(systems.ok(), await systems.text()).toBe(true);
  const starter = ((await systems.json()).results as { id: number; name: string }[]).find(
    (system) => system.name === 'Letterset Starter',
  );
  expect(starter, 'the workspace has the Letterset Starter').toBeDefined();
  const starterId = (starter as { id: number }).id;
  const listed = await page.request.get(
    `${workspaceApi}/email_design_systems/${starterId}/components?per=100`,
  );
  expect(listed.ok(), await listed.text()).toBe(true);
  const components = (await listed.json()).results as StarterComponent[];
  return {
    id: starterId,
    components,
    componentNamed(name) {
      const component = components.find((candidate) => candidate.name === name);
      expect(component, `the Letterset Starter has a ${name}`).toBeDefined();
      return component as StarterComponent;
    },
  };
}
