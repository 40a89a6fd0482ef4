// packages/db is a house by domain (src/<domain>/): a domain uses another only through that
// domain's index.ts, never its inner files, so each domain's inside can change without the others
// noticing. A domain's tables are public too: its schema.ts may be imported for them (a foreign key
// names another domain's table; the audit log joins the users). That keeps the tables loadable
// without any query (drizzle-kit reads them alone) and the domains free of import cycles: identity
// writes the audit log while the audit log reads users' names, and neither needs the other's queries.
// Written with no-restricted-syntax: the folders' zones already use import-x/no-restricted-paths
// and no-restricted-imports on these files, and a second setting of a rule would replace theirs.

/** An import path into another domain's folder, but to its index.ts or schema.ts (esquery regex: no slash). */
const intoAnotherDomain = String.raw`/^\.\.\x2F[a-z-]+\x2F(?!(index|schema)\.ts$)/`;

export default [
  {
    files: ['packages/db/src/*/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].map((node) => ({
          selector: `${node}[source.value=${intoAnotherDomain}]`,
          message: "A domain imports another domain through that domain's index.ts (or its tables, schema.ts), never its other files.",
        })),
      ],
    },
  },
];
