// Placeholder: being built.
export default function Page() {
  return <h1>contacts</h1>;
}
