// Placeholder: being built.
export default function Page() {
  return <h1>logout</h1>;
}
