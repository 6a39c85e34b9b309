// oidc-provider ships no type declarations; the tests only use its constructor and callback().
declare module "oidc-provider" {
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => { callback(): (req: unknown, res: unknown) => void };
  export default Provider;
}
