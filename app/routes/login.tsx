// Placeholder: being built.
export default function Page() {
  return <h1>login</h1>;
}
