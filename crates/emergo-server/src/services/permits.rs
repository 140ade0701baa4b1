//! Counted caps on open things (connections, WebSockets, streams): all together and per client,
//! with a reserve for clients with few open.

use crate::services::error::ServiceError;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// A count of open things (connections, WebSockets), all together and by client, with caps.
pub struct Permits {
    cap: usize,
    per_client: usize,
    /// The last `reserve` under the cap go only to clients with fewer than `few` open.
    reserve: usize,
    few: usize,
    what: &'static str,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One open thing; counted until dropped.
pub struct Permit {
    permits: Arc<Permits>,
    client: Option<IpAddr>,
}

impl Permits {
    /// `what` names the caps: `<what>` and `<what>_per_client`.
    pub fn new(what: &'static str, cap: usize, per_client: usize) -> Arc<Permits> {
        Permits::with_reserve(what, cap, per_client, 0, 0)
    }

    /// Permits whose last `reserve` under `cap` go only to clients with fewer than `few` open
    /// (and to uncounted ones, a trusted proxy): a few busy clients cannot take them all.
    pub fn with_reserve(
        what: &'static str,
        cap: usize,
        per_client: usize,
        reserve: usize,
        few: usize,
    ) -> Arc<Permits> {
        Arc::new(Permits {
            cap,
            per_client,
            reserve: reserve.min(cap),
            few,
            what,
            open: Mutex::new((0, HashMap::new())),
        })
    }

    /// A permit for `client` (`None`: counted in the total only, e.g. a trusted proxy), or
    /// the `busy` error naming the cap that is full.
    pub fn acquire(self: &Arc<Self>, client: Option<IpAddr>) -> Result<Permit, ServiceError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.0 >= self.cap {
            return Err(ServiceError::Busy {
                cap: self.what,
                message: format!(
                    "the server has {} {} open; try again later",
                    open.0, self.what
                ),
            });
        }
        if let Some(client) = client {
            let in_reserve = open.0 >= self.cap - self.reserve;
            let mine = open.1.entry(client).or_default();
            if in_reserve && *mine >= self.few {
                let mine = *mine;
                if mine == 0 {
                    open.1.remove(&client);
                }
                return Err(ServiceError::Busy {
                    cap: self.what,
                    message: format!(
                        "the server is nearly full: its last {} {} are kept for clients with \
                         fewer than {} open, and this address has {mine}",
                        self.reserve, self.what, self.few
                    ),
                });
            }
            if *mine >= self.per_client {
                return Err(ServiceError::Busy {
                    cap: if self.what == "connections" {
                        "connections_per_client"
                    } else {
                        "websockets_per_client"
                    },
                    message: format!(
                        "this address has {} {} open already",
                        self.per_client, self.what
                    ),
                });
            }
            *mine += 1;
        }
        open.0 += 1;
        Ok(Permit {
            permits: self.clone(),
            client,
        })
    }

    /// How many are open.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut open = self.permits.open.lock().unwrap_or_else(|e| e.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(client) = self.client {
            if let Some(n) = open.1.get_mut(&client) {
                *n -= 1;
                if *n == 0 {
                    open.1.remove(&client);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permits_count_in_total_and_by_client() {
        let permits = Permits::new("websockets", 3, 2);
        let a: IpAddr = "127.0.0.2".parse().expect("ip");
        let b: IpAddr = "127.0.0.3".parse().expect("ip");
        let a1 = permits.acquire(Some(a)).expect("a1");
        let _a2 = permits.acquire(Some(a)).expect("a2");
        assert!(permits.acquire(Some(a)).is_err());
        let _b1 = permits.acquire(Some(b)).expect("b1");
        assert!(permits.acquire(Some(b)).is_err(), "the total is full");
        drop(a1);
        assert!(permits.acquire(Some(b)).is_ok());
    }

    #[test]
    fn the_reserve_goes_to_clients_with_few_open() {
        // 10 in all, the last 4 for clients with fewer than 2 open.
        let permits = Permits::with_reserve("connections", 10, 100, 4, 2);
        let busy: IpAddr = "127.0.0.2".parse().expect("ip");
        let held: Vec<Permit> = (0..6)
            .map(|_| permits.acquire(Some(busy)).expect("below the reserve"))
            .collect();
        assert!(
            permits.acquire(Some(busy)).is_err(),
            "the reserve is not its"
        );
        let fresh: Vec<Permit> = (0..4)
            .map(|i| {
                let ip = IpAddr::from([127, 0, 0, 10 + i]);
                permits.acquire(Some(ip)).expect("a client with none open")
            })
            .collect();
        assert_eq!(permits.open(), 10);
        assert!(permits
            .acquire(Some("127.0.0.20".parse().expect("ip")))
            .is_err());
        drop((held, fresh));
        assert_eq!(permits.open(), 0);
    }
}
