/**
 * The house demo account (DESIGN.md section 6): visitors see the paper portfolio of a bot the system
 * runs on this account, through the same code path as any premium user's bot. It is not a user
 * anyone can sign in as: no `user-{id}` stream is registered under this id, so no email or password
 * leads to it. Its id is fixed so every process (workers, projectors, query-api) agrees on it.
 */
export const HOUSE_DEMO_USER_ID = '00000000-0000-4000-8000-00000000d3e0';
/** The actor recorded on the house bot's commands. */
export const HOUSE_DEMO_ACTOR = 'house-demo-bot';
