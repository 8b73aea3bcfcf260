export default function Home() {
  return <main>Shop</main>;
}
