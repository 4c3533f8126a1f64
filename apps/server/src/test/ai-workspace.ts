import {
  createStarterProject,
  createTestOrganization,
  signInAs,
  type TestOrganization,
} from './factories.ts';
import { type FakeOpenAi, startFakeOpenAi } from './fakes/fake-openai.ts';
import { buildAiTestApp, type TestApp } from './harness.ts';

export interface AiWorkspace {
  fake: FakeOpenAi;
  app: TestApp;
  organization: TestOrganization;
  admin: Record<string, string>;
  /** `/api/v1/workspaces/<id>` */
  base: string;
  starterId: number;
  teamId: number;
  projectId: number;
  close(): Promise<void>;
}

/**
 * An app whose AI is the fake model, an organization signed in as its Admin, and the Starter
 * system with a team and a project: where the AI generation tests write emails.
 */
export async function startAiWorkspace(): Promise<AiWorkspace> {
  const fake = await startFakeOpenAi();
  const app = await buildAiTestApp(fake);
  const organization = await createTestOrganization(app);
  const admin = await signInAs(app, organization.admin);
  const { starter, teamId, projectId } = await createStarterProject(app, organization, admin, {
    team: 'Travel',
    project: 'Campaigns',
  });
  return {
    fake,
    app,
    organization,
    admin,
    base: `/api/v1/workspaces/${organization.workspaceId}`,
    starterId: starter.id,
    teamId,
    projectId,
    close: async () => {
      await app.close();
      await fake.close();
    },
  };
}
