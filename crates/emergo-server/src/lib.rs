//! The Emergo web app.
