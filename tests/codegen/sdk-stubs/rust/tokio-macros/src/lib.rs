//! Stand-in for tokio's #[tokio::main], on the proc_macro crate alone:
//! `async fn main() -> R { body }` becomes `fn main() -> R { ::tokio::block_on(async move { body }) }`.
//! The body's tokens are moved, never printed and parsed again, so they keep their spans (as
//! tokio's own macro does): rustc before 1.65 refuses format arguments captured from a string
//! whose span a macro made ("there is no argument named `output`").
use proc_macro::{Delimiter, Group, TokenStream, TokenTree};

#[proc_macro_attribute]
pub fn main(_args: TokenStream, item: TokenStream) -> TokenStream {
    let mut tokens: Vec<TokenTree> = item.into_iter().collect();
    let body = match tokens.pop() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g,
        _ => panic!("#[tokio::main] takes a function with a body"),
    };
    let count = tokens.len();
    tokens.retain(|t| !matches!(t, TokenTree::Ident(i) if i.to_string() == "async"));
    if tokens.len() == count {
        panic!("#[tokio::main] takes an async fn");
    }
    let mut future: TokenStream = "async move".parse().expect("async move parses");
    future.extend([TokenTree::Group(body)]);
    let mut call: TokenStream = "::tokio::block_on".parse().expect("the path parses");
    call.extend([TokenTree::Group(Group::new(Delimiter::Parenthesis, future))]);
    let mut out: TokenStream = tokens.into_iter().collect();
    out.extend([TokenTree::Group(Group::new(Delimiter::Brace, call))]);
    out
}
