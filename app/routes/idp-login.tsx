// Placeholder: being built.
export default function Page() {
  return <h1>idp-login</h1>;
}
