// Placeholder: being built.
export default function Page() {
  return <h1>reset-password-template</h1>;
}
