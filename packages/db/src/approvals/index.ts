// Four eyes: the actions held for a second person's approval, and the requests made for them.
export * from './schema.ts';
export * from './requests.ts';
