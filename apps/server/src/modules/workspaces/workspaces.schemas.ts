import { Type } from 'typebox';
import { RequestBody, Timestamp } from '../../http/schemas.ts';

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

const WorkspaceName = Type.String({ minLength: 1, maxLength: 100 });

export const CreateWorkspaceBody = RequestBody({ name: WorkspaceName, auto_join: Type.Boolean() });
export const UpdateWorkspaceBody = RequestBody({
  name: Type.Optional(WorkspaceName),
  auto_join: Type.Optional(Type.Boolean()),
});
export const WorkspaceParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const WorkspaceMemberParams = Type.Object({ workspace_id: Type.Integer({ minimum: 1 }) });
export const WorkspaceMemberItemParams = Type.Object({
  workspace_id: Type.Integer({ minimum: 1 }),
  user_id: Type.Integer({ minimum: 1 }),
});
export const AddMemberBody = RequestBody({ user_id: Type.Integer({ minimum: 1 }) });
