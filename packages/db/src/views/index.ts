// Views and preferences: what each operator keeps of the console.
export * from './schema.ts';
export * from './preferences.ts';
export * from './views.ts';
