// The configured REMOTE_DEPLOY_TOKEN, recorded among the deploy tokens on first need: not at start
// (the API starts with its database down too), and again after a failure. Shared by the deployers'
// credential check and the admins' token routes.
import { recordConfiguredDeployToken } from '@ejdesk/db';
import type { AppContext } from '../context.ts';

const recorded = new WeakMap<AppContext, Promise<void>>();

export function configuredDeployTokenRecorded(ctx: AppContext): Promise<void> {
  let done = recorded.get(ctx);
  if (!done) {
    done = recordConfiguredDeployToken(ctx.db, ctx.config.deployToken).catch((err: unknown) => {
      recorded.delete(ctx);
      throw err;
    });
    recorded.set(ctx, done);
  }
  return done;
}
