import { Type } from 'typebox';
import { Id, IdParams, Name, RequestBody, Timestamp, WorkspaceIdParams } from '../../http/schemas.ts';

export const Workspace = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    auto_join: Type.Boolean({
      description: 'New users of the organization join this workspace automatically',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Workspace' },
);

const WorkspaceName = Name();

export const CreateWorkspaceBody = RequestBody({ name: WorkspaceName, auto_join: Type.Boolean() });
export const UpdateWorkspaceBody = RequestBody({
  name: Type.Optional(WorkspaceName),
  auto_join: Type.Optional(Type.Boolean()),
});
export const WorkspaceParams = IdParams;
export const WorkspaceMemberParams = WorkspaceIdParams;
export const WorkspaceMemberItemParams = Type.Object({ workspace_id: Id(), user_id: Id() });
export const AddMemberBody = RequestBody({ user_id: Id() });
