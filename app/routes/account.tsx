// Placeholder: being built.
export default function Page() {
  return <h1>account</h1>;
}
