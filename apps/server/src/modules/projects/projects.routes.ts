import { workspaceCrudRoutes } from '../../http/workspace-crud-routes.ts';
import {
  CreateProjectBody,
  DeleteProjectQuery,
  ListProjectsQuery,
  Project,
  ProjectParams,
  UpdateProjectBody,
} from './projects.schemas.ts';
import { createProject, deleteProject, getProject, listProjects, updateProject } from './projects.service.ts';

const visibility =
  'Only members of the owning team, or holders of access_all_projects, see a project and its emails (404 otherwise).';

export const projectsRoutes = workspaceCrudRoutes({
  path: 'projects',
  tag: 'Projects',
  name: { singular: 'Project', plural: 'Projects', words: 'project' },
  permissions: { create: 'create_projects', update: 'update_projects', delete: 'delete_projects' },
  schemas: {
    item: Project,
    create: CreateProjectBody,
    update: UpdateProjectBody,
    itemParams: ProjectParams,
    listQuery: ListProjectsQuery,
    deleteQuery: DeleteProjectQuery,
  },
  descriptions: {
    list: `Sorted by name; filter by team_id and search the name. ${visibility}`,
    create:
      'The team must be one of this workspace, and one you belong to unless you hold access_all_projects.',
    get: visibility,
    delete:
      'A project that still has emails is kept (422 naming them) unless delete_emails=true confirms ' +
      'that its emails go with it.',
  },
  service: {
    list: (services, workspaceId, page, { principal, query }) =>
      listProjects(services, principal, workspaceId, query, page),
    create: createProject,
    get: (services, workspaceId, id: number, { principal }) =>
      getProject(services, principal, workspaceId, id),
    update: (services, workspaceId, id: number, body, { principal }) =>
      updateProject(services, principal, workspaceId, id, body),
    delete: (services, workspaceId, id: number, { principal, query }) =>
      deleteProject(services, principal, workspaceId, id, query.delete_emails ?? false),
  },
});
