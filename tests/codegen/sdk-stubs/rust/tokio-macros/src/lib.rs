//! Stand-in for tokio's #[tokio::main], on the proc_macro crate alone:
//! `async fn main() -> R { body }` becomes `fn main() -> R { ::tokio::block_on(async move { body }) }`.
use proc_macro::{Delimiter, TokenStream, TokenTree};

#[proc_macro_attribute]
pub fn main(_args: TokenStream, item: TokenStream) -> TokenStream {
    let mut tokens: Vec<TokenTree> = item.into_iter().collect();
    let body = match tokens.pop() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g,
        _ => panic!("#[tokio::main] takes a function with a body"),
    };
    let count = tokens.len();
    tokens.retain(|t| !matches!(t, TokenTree::Ident(i) if i.to_string() == "async"));
    let was_async = tokens.len() < count;
    let head = tokens.into_iter().collect::<TokenStream>().to_string();
    if !was_async {
        panic!("#[tokio::main] takes an async fn");
    }
    format!("{head} {{ ::tokio::block_on(async move {body}) }}")
        .parse()
        .expect("the rewritten main parses")
}
