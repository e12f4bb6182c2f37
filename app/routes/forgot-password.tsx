// Placeholder: being built.
export default function Page() {
  return <h1>forgot-password</h1>;
}
